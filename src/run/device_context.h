// The GPU side of a run, opened once when any selected backend runs on the device: the device's
// facts, a stream, the clock monitor, the timer (with its L2 flush buffer) and the measured copy
// bandwidth.
#pragma once
#include <cuda_runtime.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "env/environment.h"
#include "problem/problem.h"
#include "timing/clocks.h"
#include "timing/sampling.h"
#include "timing/timer.h"

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
};

// Bytes of device memory a problem needs besides backend workspaces: x, W, b, y and the L2 flush
// buffer.
uint64_t base_device_bytes(const Problem& problem, const DeviceInfo& device, L2Mode l2);

// Throws EnvironmentError when there is no usable device or a problem does not fit in its memory.
// `quiet`: no status lines on stderr.
std::unique_ptr<DeviceContext> open_device_context(const std::vector<Problem>& problems, L2Mode l2,
                                                   bool quiet);

}  // namespace mish
