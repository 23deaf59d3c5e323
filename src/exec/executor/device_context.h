// The GPU side of a run, opened once per device that a selected backend runs on: the device's
// facts, a stream, the clock monitor, the timer (with its L2 flush buffer) and the measured copy
// and read bandwidths.
#pragma once
#include <cuda_runtime.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/env/environment.h"
#include "core/outcome/outcome.h"
#include "core/problem/problem.h"
#include "core/timing/clocks.h"
#include "core/timing/sampling.h"
#include "core/timing/timer.h"

namespace mish {

// RAII stream.
class Stream {
 public:
  Stream();
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

struct DeviceContext {
  DeviceInfo device;
  Stream stream;
  std::unique_ptr<ClockMonitor> clocks;  // null when NVML cannot be opened
  std::string clocks_note;               // why clocks are not recorded
  std::unique_ptr<DeviceTimer> timer;
  CopyBandwidth copy_bandwidth;
  ReadBandwidth read_bandwidth;
  DeviceRecord record() const;  // what the outcome keeps of it
};

// Bytes of device memory a problem needs besides backend workspaces: x, W, b, y, the L2 flush
// buffer, and what checking the calls' outputs takes at the least.
uint64_t base_device_bytes(const Problem& problem, const DeviceInfo& device, L2Mode l2);

// Opens CUDA device `ordinal`, which becomes the calling thread's current device. Throws
// EnvironmentError when it cannot be used or a problem does not fit in its memory. `quiet`: no
// status lines on stderr; `label` starts them ("gpu 1: " in a run on several devices).
std::unique_ptr<DeviceContext> open_device_context(int ordinal,
                                                   const std::vector<Problem>& problems, L2Mode l2,
                                                   bool quiet, const std::string& label);

}  // namespace mish
