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

#include "cuda/device_buffer.h"
#include "timing/clocks.h"
#include "timing/sampling.h"

namespace mish {

struct GateFlags;

// Called after each sample with the rough fraction of the sampling done (may be empty).
using ProgressFn = std::function<void(double)>;

class DeviceTimer {
 public:
  // `sms`: the device's multiprocessors (sizes the flush's grid). `clocks` may be null (no
  // NVML): samples then carry no clock readings.
  DeviceTimer(cudaStream_t stream, size_t l2_bytes, int sms, L2Mode mode,
              const ClockMonitor* clocks);
  ~DeviceTimer();
  DeviceTimer(const DeviceTimer&) = delete;
  DeviceTimer& operator=(const DeviceTimer&) = delete;

  // Runs `enqueue` settings.warmup times, then samples it until the stopping rule says stop.
  // Each sample: [flush L2], start event, enqueue, stop event, all queued behind a gate that the
  // host opens only once everything is enqueued.
  Sampling sample(const std::function<void()>& enqueue, const SampleSettings& settings,
                  const ProgressFn& on_progress = {});

  // Enqueues `enqueue` `iterations` times back to back (no flush, no gate) between two events,
  // from one cudaDeviceSynchronize to the next (AuditReading).
  AuditReading audit(const std::function<void()>& enqueue, int iterations);

  cudaStream_t stream() const { return stream_; }

 private:
  void flush_l2();

  cudaStream_t stream_;
  const ClockMonitor* clocks_;
  int sms_;
  DeviceBuffer<float4> flush_buffer_;  // empty when not flushing
  DeviceBuffer<float> flush_sink_;
  GateFlags* gate_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// Host backends: wall time of each call of `run`, which must be synchronous.
Sampling sample_host(const std::function<void()>& run, const SampleSettings& settings,
                     const ProgressFn& on_progress = {});

// Times cudaMemcpyAsync copies of `bytes` device to device (see CopyBandwidth).
CopyBandwidth measure_copy_bandwidth(DeviceTimer& timer, size_t bytes);

// Times streaming reads of `bytes` (a multiple of 16) on a device with `sms` multiprocessors.
ReadBandwidth measure_read_bandwidth(DeviceTimer& timer, size_t bytes, int sms);

}  // namespace mish
