#include "run/device_run.h"

#include <fmt/format.h>

#include "base/cuda/cuda_check.cuh"
#include <random>

#include "exec/executor/buffers.h"
#include "exec/executor/in_process_executor.h"
#include "exec/worker/worker_executor.h"
#include "run/call_checker.h"
#include "run/steps.h"

namespace mish {
namespace {

std::unique_ptr<Executor> make_executor(const RunConfig& config, const BackendEntry& entry,
                                        DeviceContext* gpu, int device) {
  if (entry.isolated) {
    WorkerLaunch launch;
    launch.argv = entry.worker_argv;
    launch.backend = entry.info.name;
    launch.options = config.backend_options.value(entry.info.name, nlohmann::json::object());
    launch.settings = config.execution;
    launch.limits = config.worker_limits;
    launch.device = device;
    return make_worker_executor(std::move(launch));
  }
  const bool on_device = entry.info.placement == Placement::device;
  const ExecutionEnv env{on_device ? gpu->stream.get() : nullptr,
                         on_device ? gpu->timer.get() : nullptr, config.execution};
  return std::make_unique<InProcessExecutor>(make_configured(entry, config.backend_options), env);
}

}  // namespace

// 64 bits from the operating system's random source (std::random_device reads it on Linux).
uint64_t draw_nonce() {
  std::random_device source;
  return (uint64_t(source()) << 32) ^ uint64_t(source());
}

DeviceRun::DeviceRun(const RunConfig& config, BackendTable backends, DeviceRunPlan plan)
    : config_(config), backends_(std::move(backends)), plan_(std::move(plan)),
      nonce_(draw_nonce()) {
  if (plan_.ordinal) {
    gpu_ = open_device_context(*plan_.ordinal, config_.problems, config_.execution.l2, config_.quiet,
                               plan_.label);
    record_ = gpu_->record();
  }
  for (const BackendEntry& entry : backends_)
    executors_.push_back(make_executor(config_, entry, gpu_.get(), plan_.ordinal.value_or(0)));
}

DeviceRun::~DeviceRun() {
  // In-process backends release their handles and memory on their own device.
  if (plan_.ordinal) MISH_CUDA_CHECK_NOTHROW(cudaSetDevice(*plan_.ordinal));
}

std::optional<DeviceRecord> DeviceRun::record() const { return record_; }

void DeviceRun::make_current() const {
  if (plan_.ordinal) MISH_CUDA_CHECK(cudaSetDevice(*plan_.ordinal));
}

std::vector<unsigned> DeviceRun::worker_pids() const {
  std::vector<unsigned> pids;
  for (const auto& executor : executors_)
    for (unsigned pid : executor->pids()) pids.push_back(pid);
  return pids;
}

std::vector<BackendResult> DeviceRun::run(const ProblemData& data) {
  make_current();
  const bool named = !plan_.label.empty() && plan_.ordinal;  // one of several devices
  std::unique_ptr<CallChecker> device_checker, host_checker;
  const auto checker = [&](bool on_device) -> CallChecker& {
    std::unique_ptr<CallChecker>& made = on_device ? device_checker : host_checker;
    if (!made) made = std::make_unique<CallChecker>(data, on_device ? gpu_->stream.get() : nullptr);
    return *made;
  };
  const StepEnv env{config_,
                    data,
                    nonce_,
                    checker,
                    gpu_ ? &gpu_->device : nullptr,
                    record_ ? &*record_ : nullptr,
                    gpu_ ? gpu_->clocks.get() : nullptr,
                    [this] { return worker_pids(); },
                    plan_.label,
                    named ? fmt::format("_gpu{}", *plan_.ordinal) : "",
                    plan_.progress};

  // A fixed series' calls, all of which a store keeps where it can; an adaptive one's are not
  // known in advance.
  const SampleSettings& sampling = config_.sampling;
  const uint64_t calls = sampling.adaptive() ? 0 : uint64_t(sampling.warmup) + sampling.iters + 1;
  std::vector<BackendResult> results;
  std::unique_ptr<ProblemBuffers> device_buffers, host_buffers;
  for (size_t i = 0; i < backends_.size(); ++i) {
    const BackendInfo& info = backends_[i].info;
    const bool on_device = info.placement == Placement::device;
    std::unique_ptr<ProblemBuffers>& buffers = on_device ? device_buffers : host_buffers;
    if (!buffers) {
      if (on_device)
        buffers = make_device_buffers(
            data.problem, device_store_slots(data.problem, gpu_->device.free_bytes, calls),
            gpu_->stream.get());
      else
        buffers = make_host_buffers(data, host_store_slots(data.problem, data.reference_ms, calls));
    }
    if (!config_.quiet) fmt::print(stderr, "{}{}: verifying and timing\n", plan_.label, info.name);
    BackendResult result = run_steps(env, *buffers, *executors_[i], info);
    if (on_device) result.device = plan_.device_index;
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace mish
