#include "run/runner.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "backends/external/backend_table.h"
#include "base/common/elapsed.h"
#include "base/common/errors.h"
#include "base/progress/progress.h"
#include "core/dump/dump.h"
#include "core/problem/input_rng.cuh"
#include "core/reference/reference.h"
#include "run/device_run.h"
#include "run/task_thread.h"

namespace mish {
namespace {

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
  data.reference_ms = run.reference_ms;
  say(config, "float64 reference: {:.1f} ms", run.reference_ms);
  return data;
}

// Why the device backends cannot run here (no CUDA device), or "" when they can.
std::string missing_device_reason() {
  std::string why;
  if (visible_device_count(&why) > 0) return "";
  return fmt::format("no CUDA device ({}): the GPU backends were skipped. Run --backend=cpu to "
                     "use the host only",
                     why);
}

// A device backend's result where there is no device: skipped, with the reason (and, for a
// solution, how one that needs no GPU says so).
BackendResult skipped_for_no_device(const BackendInfo& info, const std::string& why) {
  BackendResult result;
  result.backend = info.name;
  result.math_mode = info.math_mode;
  result.expected_accuracy = info.accuracy;
  result.origin = info.origin;
  result.status = Status::skipped;
  result.reason = why;
  if (info.origin.kind == "solution")
    result.reason += "; a solution that computes on the host (numpy) declares "
                     "MISHBENCH_PLACEMENT = \"host\"";
  return result;
}

// The parts of the run (device_run.h): one holding every backend on at most one device, as
// always; with several devices one per device, every device backend in a worker process of its
// own, then one for the host backends.
std::vector<std::unique_ptr<DeviceRun>> plan_parts(const RunConfig& config,
                                                   const BackendTable& backends,
                                                   const std::vector<int>& ordinals,
                                                   bool parallel) {
  std::vector<std::unique_ptr<DeviceRun>> parts;
  if (ordinals.size() <= 1) {
    DeviceRunPlan plan;
    if (!ordinals.empty()) plan.ordinal = ordinals.front();
    parts.push_back(std::make_unique<DeviceRun>(config, backends, plan));
    return parts;
  }
  BackendTable on_device, on_host;
  for (const BackendEntry& entry : backends)
    (entry.info.placement == Placement::device ? on_device : on_host).push_back(entry);
  isolate_builtins(on_device);
  for (const BackendEntry& entry : on_device)
    if (!entry.isolated)
      throw UsageError(fmt::format(
          "backend '{}' is loaded into the tool's own process (--isolate=none), but a run on "
          "several devices runs every device backend in a worker process pinned to its device; "
          "drop --isolate=none or select one device",
          entry.info.name));
  for (size_t i = 0; i < ordinals.size(); ++i) {
    DeviceRunPlan plan;
    plan.ordinal = ordinals[i];
    plan.device_index = i;
    plan.label = fmt::format("gpu {}: ", ordinals[i]);
    plan.progress = !parallel;
    parts.push_back(std::make_unique<DeviceRun>(config, on_device, plan));
  }
  if (!on_host.empty()) {
    DeviceRunPlan plan;
    plan.label = "host: ";
    parts.push_back(std::make_unique<DeviceRun>(config, on_host, plan));
  }
  return parts;
}

// Every part's results on `data`: the device parts on their threads, if any, all at once; the rest
// (every part when they take turns, the host part after the devices) on this thread.
std::vector<BackendResult> run_parts(const std::vector<std::unique_ptr<DeviceRun>>& parts,
                                     const std::vector<std::unique_ptr<TaskThread>>& threads,
                                     const ProblemData& data) {
  std::vector<std::vector<BackendResult>> results(parts.size());
  const auto run_part = [&](size_t i) { results[i] = parts[i]->run(data); };
  std::vector<std::future<void>> running;
  for (size_t i = 0; i < threads.size(); ++i)
    running.push_back(threads[i]->post([&run_part, i] { run_part(i); }));
  for (std::future<void>& done : running) done.wait();
  for (std::future<void>& done : running) done.get();  // the first failure, once all stopped
  for (size_t i = threads.size(); i < parts.size(); ++i) run_part(i);
  std::vector<BackendResult> all;
  for (std::vector<BackendResult>& part : results)
    for (BackendResult& result : part) all.push_back(std::move(result));
  return all;
}

}  // namespace

RunOutcome run_benchmark(const RunConfig& config, const BackendTable& backends) {
  validate(config);

  RunOutcome outcome;
  outcome.host = query_host();
  outcome.include_prepack = config.execution.include_prepack;
  bool needs_device = false;
  for (const BackendEntry& entry : backends)
    needs_device |= entry.info.placement == Placement::device;
  // Without a device the host backends still run; the device backends are skipped.
  outcome.missing_device = needs_device ? missing_device_reason() : "";
  BackendTable runnable;
  for (const BackendEntry& entry : backends)
    if (outcome.missing_device.empty() || entry.info.placement == Placement::host)
      runnable.push_back(entry);
  std::string why;
  const std::vector<int> ordinals = needs_device && outcome.missing_device.empty()
                                        ? resolve_devices(config.devices, visible_device_count(&why))
                                        : std::vector<int>{};
  const bool parallel = config.devices_parallel && ordinals.size() > 1;
  outcome.devices_parallel = parallel;

  // With the devices at the same time, each device's part runs on a thread of its own for the
  // whole run (task_thread.h says why). Declared before the parts: the parts' workers are asked
  // to exit while their threads still live.
  std::vector<std::unique_ptr<TaskThread>> threads;
  const std::vector<std::unique_ptr<DeviceRun>> parts =
      plan_parts(config, runnable, ordinals, parallel);
  for (const auto& part : parts)
    if (std::optional<DeviceRecord> record = part->record()) {
      outcome.devices.push_back(std::move(*record));
      if (parallel) threads.push_back(std::make_unique<TaskThread>());
    }

  // Only device backends and no device: no backend would read the inputs or the reference.
  const bool nothing_runs = runnable.empty() && config.dump_dir.empty();
  for (const Problem& problem : config.problems) {
    ProblemRun run;
    run.problem = problem;
    if (nothing_runs) {
      say(config, "problem {}: no backend can run here; inputs and reference not computed",
          problem.shape());
    } else {
      const ProblemData data = prepare_problem(config, problem, run);
      if (!config.dump_dir.empty()) dump_problem(config.dump_dir, data);
      run.results = run_parts(parts, threads, data);
    }
    if (!outcome.missing_device.empty())
      for (const BackendEntry& entry : backends)
        if (entry.info.placement == Placement::device)
          run.results.push_back(skipped_for_no_device(entry.info, outcome.missing_device));
    outcome.runs.push_back(std::move(run));
  }
  return outcome;
}

}  // namespace mish
