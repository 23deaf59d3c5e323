// Sample collection: CUDA events around each device iteration, a steady clock for host backends.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace mish {

// flush: overwrite a buffer of twice the L2 size before every sample, outside the timed events,
// so each sample starts cold (as KernelBench and nvbench do). hot: samples run back to back.
enum class L2Mode { flush, hot };
std::string to_string(L2Mode mode);
L2Mode parse_l2_mode(const std::string& name);  // throws UsageError

struct SampleSettings {
  int warmup = 10;
  int iters = 100;
  L2Mode l2 = L2Mode::flush;
};

class DeviceTimer {
 public:
  DeviceTimer(cudaStream_t stream, size_t l2_bytes, L2Mode mode);
  ~DeviceTimer();
  DeviceTimer(const DeviceTimer&) = delete;
  DeviceTimer& operator=(const DeviceTimer&) = delete;

  // Runs `enqueue` warmup times, then iters timed times; returns one sample (ms) per timed run.
  std::vector<double> sample(const std::function<void()>& enqueue, const SampleSettings& settings);

  size_t flush_bytes() const { return flush_bytes_; }

 private:
  void flush_l2(int round);

  cudaStream_t stream_;
  L2Mode mode_;
  size_t flush_bytes_ = 0;
  void* flush_buffer_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// Host backends: wall time of each call of `run`, which must be synchronous.
std::vector<double> sample_host(const std::function<void()>& run, const SampleSettings& settings);

}  // namespace mish
