// One device's part of a run: the device (context, stream, timer, clock monitor, measured
// bandwidths), the executors of the backends that run there, made once and kept for the whole
// run, and the buffers of the problem at hand. A run with one device has one part, holding every
// selected backend, the built-ins in the tool's own process; a run with several devices has one
// part per device, every backend in a worker process pinned to that device, and one part without
// a device for the host backends (run/runner.h).
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/builtin/registry.h"
#include "core/outcome/outcome.h"
#include "core/problem/problem_data.h"
#include "exec/executor/device_context.h"
#include "exec/executor/executor.h"
#include "settings/run_config.h"

namespace mish {

// How a part runs, besides its backends.
struct DeviceRunPlan {
  std::optional<int> ordinal;  // the CUDA device; empty for a part of host backends only
  size_t device_index = 0;     // the device's place in RunOutcome::devices
  std::string label;           // "gpu 1: " before its status lines with several devices; else ""
  bool progress = true;        // progress bars may be drawn
};

class DeviceRun {
 public:
  // Opens the device, if the plan names one, on the calling thread (throws EnvironmentError when
  // it cannot be used or a problem does not fit), and makes an executor for each backend.
  DeviceRun(const RunConfig& config, BackendTable backends, DeviceRunPlan plan);
  ~DeviceRun();
  DeviceRun(const DeviceRun&) = delete;
  DeviceRun& operator=(const DeviceRun&) = delete;

  // The device's record for the outcome; empty for a part without a device.
  std::optional<DeviceRecord> record() const;

  // Every backend of the part on one problem, in order. May run on any thread: it makes the
  // part's device that thread's current device first.
  std::vector<BackendResult> run(const ProblemData& data);

 private:
  void make_current() const;
  std::vector<unsigned> worker_pids() const;

  const RunConfig& config_;
  BackendTable backends_;
  DeviceRunPlan plan_;
  std::unique_ptr<DeviceContext> gpu_;
  std::optional<DeviceRecord> record_;
  uint64_t nonce_;  // drawn from the operating system's random source, never handed out
  std::vector<std::unique_ptr<Executor>> executors_;  // after gpu_: destroyed before it
};

}  // namespace mish
