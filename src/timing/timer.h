// Sample collection: CUDA events around each device sample, a steady clock for host backends;
// a fixed count or the adaptive stopping rule (stopping.h) decides how many samples.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "timing/clocks.h"
#include "timing/stopping.h"

namespace mish {

class ProgressBar;
struct GateFlags;

// flush: overwrite a buffer of twice the L2 size before every sample, outside the timed events,
// so each sample starts cold (as KernelBench and nvbench do). hot: samples run back to back.
enum class L2Mode { flush, hot };
std::string to_string(L2Mode mode);
L2Mode parse_l2_mode(const std::string& name);  // throws UsageError

// Warm-up, L2 mode and the stopping rule (iters, min_time_s, max_noise, timeout_s).
struct SampleSettings : StoppingRule {
  int warmup = 10;
  L2Mode l2 = L2Mode::flush;
};

// What one sampling loop produced.
struct Sampling {
  std::vector<double> samples_ms;
  StopReason stopped_by = StopReason::iters;
  // One reading per sample (device sampling with a ClockMonitor), taken while the sample's work
  // was in flight; nullopt where the read failed.
  std::vector<std::optional<ClockReading>> clocks;
  int gate_timeouts = 0;  // samples whose enqueue blocked the host (see stream_gate.cuh)
};

class DeviceTimer {
 public:
  // `clocks` may be null (no NVML): samples then carry no clock readings.
  DeviceTimer(cudaStream_t stream, size_t l2_bytes, L2Mode mode, const ClockMonitor* clocks);
  ~DeviceTimer();
  DeviceTimer(const DeviceTimer&) = delete;
  DeviceTimer& operator=(const DeviceTimer&) = delete;

  // Runs `enqueue` settings.warmup times, then samples it until the stopping rule says stop.
  // Each sample: [flush L2], start event, enqueue, stop event, all queued behind a gate that the
  // host opens only once everything is enqueued. `progress` may be null.
  Sampling sample(const std::function<void()>& enqueue, const SampleSettings& settings,
                  ProgressBar* progress);

  cudaStream_t stream() const { return stream_; }
  L2Mode mode() const { return mode_; }
  size_t flush_bytes() const { return flush_bytes_; }

 private:
  void flush_l2(int round);

  cudaStream_t stream_;
  L2Mode mode_;
  const ClockMonitor* clocks_;
  size_t flush_bytes_ = 0;
  void* flush_buffer_ = nullptr;
  GateFlags* gate_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// Host backends: wall time of each call of `run`, which must be synchronous.
Sampling sample_host(const std::function<void()>& run, const SampleSettings& settings,
                     ProgressBar* progress);

// Device-to-device copy bandwidth: the median of timed cudaMemcpyAsync copies of `bytes`, counting
// the bytes read plus the bytes written (2 x bytes per copy), the unit the epilogue's GB/s uses.
struct CopyBandwidth {
  uint64_t bytes_per_copy = 0;
  double median_ms = 0;
  double gb_per_s = 0;  // 2 * bytes_per_copy / median, in 1e9 bytes per second
};
CopyBandwidth measure_copy_bandwidth(DeviceTimer& timer, size_t bytes);

}  // namespace mish
