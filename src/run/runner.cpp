#include "run/runner.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "dump/dump.h"
#include "progress/progress.h"
#include "reference/reference.h"
#include "run/buffers.h"
#include "run/device_context.h"
#include "run/in_process_executor.h"
#include "problem/input_rng.cuh"
#include "run/steps.h"
#include "run/worker_executor.h"

namespace mish {
namespace {

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

// Status lines go to stderr so stdout carries only the table.
template <typename... Args>
void say(const RunConfig& config, fmt::format_string<Args...> format, Args&&... args) {
  if (!config.quiet) fmt::print(stderr, "{}\n", fmt::format(format, std::forward<Args>(args)...));
}

// Inputs and reference for one problem, with progress bars, timed.
ProblemData prepare_problem(const RunConfig& config, const Problem& problem, ProblemRun& run) {
  say(config, "problem {} ({}, seed {}): generating inputs", problem.shape(),
      to_string(problem.distribution), problem.seed);
  ProblemData data;
  data.problem = problem;
  auto start = std::chrono::steady_clock::now();
  {
    ProgressBar progress("generating inputs", !config.quiet);
    data.inputs = generate_inputs(problem, [&](double done) { progress.update(done); });
  }
  run.generate_ms = elapsed_ms(start);
  start = std::chrono::steady_clock::now();
  {
    ProgressBar progress("float64 reference", !config.quiet);
    data.reference =
        compute_reference(problem, data.inputs, [&](double done) { progress.update(done); });
  }
  run.reference_ms = elapsed_ms(start);
  say(config, "float64 reference: {:.1f} ms", run.reference_ms);
  return data;
}

// The same problem with another x (drawn with another seed) and its own reference, for the
// stale-output check.
ProblemData fresh_problem(const RunConfig& config, const ProblemData& data) {
  say(config, "float64 reference for fresh x (stale-output check)");
  ProblemData fresh;
  fresh.problem = data.problem;
  Problem other = data.problem;
  other.seed += kFreshInputSeedOffset;
  fresh.inputs.x.resize(other.x_count());
  generate_tensor(other, Tensor::x, fresh.inputs.x.data(), other.x_count());
  fresh.inputs.w = data.inputs.w;
  fresh.inputs.b = data.inputs.b;
  ProgressBar progress("float64 reference, fresh x", !config.quiet);
  fresh.reference =
      compute_reference(data.problem, fresh.inputs, [&](double done) { progress.update(done); });
  return fresh;
}

std::unique_ptr<Executor> make_executor(const RunConfig& config, const BackendEntry& entry,
                                        DeviceContext* gpu) {
  if (entry.isolated) {
    WorkerLaunch launch;
    launch.argv = entry.worker_argv;
    launch.backend = entry.info.name;
    launch.options = config.backend_options.value(entry.info.name, nlohmann::json::object());
    launch.l2 = config.sampling.l2;
    launch.include_prepack = config.include_prepack;
    launch.limits = config.worker_limits;
    return std::make_unique<WorkerExecutor>(std::move(launch));
  }
  const bool on_device = entry.info.placement == Placement::device;
  const ExecutionEnv env{on_device ? gpu->stream.get() : nullptr,
                         on_device ? gpu->timer.get() : nullptr, config.include_prepack};
  return std::make_unique<InProcessExecutor>(make_configured(entry, config.backend_options), env);
}

}  // namespace

RunOutcome run_benchmark(const RunConfig& config, const BackendTable& backends) {
  validate(config);

  RunOutcome outcome;
  outcome.host = query_host();
  outcome.include_prepack = config.include_prepack;
  bool needs_device = false;
  for (const BackendEntry& entry : backends) needs_device |= entry.info.placement == Placement::device;
  std::unique_ptr<DeviceContext> gpu;
  if (needs_device) {
    gpu = open_device_context(config.problems, config.sampling.l2, config.quiet);
    outcome.device = gpu->device;
    outcome.copy_bandwidth = gpu->copy_bandwidth;
    outcome.read_bandwidth = gpu->read_bandwidth;
    outcome.clocks_note = gpu->clocks_note;
    if (gpu->clocks) outcome.max_sm_mhz = gpu->clocks->max_sm_mhz();
  }

  std::vector<std::unique_ptr<Executor>> executors;
  for (const BackendEntry& entry : backends)
    executors.push_back(make_executor(config, entry, gpu.get()));
  const auto own_pids = [&] {
    std::vector<unsigned> pids;
    for (const auto& executor : executors)
      for (unsigned pid : executor->pids()) pids.push_back(pid);
    return pids;
  };

  for (const Problem& problem : config.problems) {
    ProblemRun run;
    run.problem = problem;
    const ProblemData data = prepare_problem(config, problem, run);
    if (!config.dump_dir.empty()) dump_problem(config.dump_dir, data);
    std::optional<ProblemData> fresh;
    const StepEnv env{config,
                      data,
                      [&]() -> const ProblemData& {
                        if (!fresh) fresh = fresh_problem(config, data);
                        return *fresh;
                      },
                      gpu ? &gpu->device : nullptr,
                      gpu ? gpu->clocks.get() : nullptr,
                      own_pids};
    std::unique_ptr<ProblemBuffers> device_buffers, host_buffers;
    for (size_t i = 0; i < backends.size(); ++i) {
      const BackendInfo& info = backends[i].info;
      std::unique_ptr<ProblemBuffers>& buffers =
          info.placement == Placement::device ? device_buffers : host_buffers;
      if (!buffers) {
        if (info.placement == Placement::device)
          buffers = std::make_unique<DeviceProblemBuffers>(problem, gpu->stream.get());
        else
          buffers = std::make_unique<HostProblemBuffers>(data);
      }
      say(config, "{}: verifying and timing", info.name);
      run.results.push_back(run_steps(env, *buffers, *executors[i], info));
    }
    outcome.runs.push_back(std::move(run));
  }
  return outcome;
}

}  // namespace mish
