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

#include "base/cuda/device_buffer.h"
#include "core/timing/clocks.h"
#include "core/timing/sampling.h"

namespace mish {

struct GateFlags;
class ActivityRecorder;

// Called after each sample with the rough fraction of the sampling done (may be empty).
using ProgressFn = std::function<void(double)>;

// What the harness does around each call of a series (exec/executor/call_hooks.h): `before` right after
// the stream gate (fresh x, poisoned y), `after` right after the stop event (y kept). `index`
// counts the series' calls from 0, warm-up included.
class CallHooks {
 public:
  virtual ~CallHooks() = default;
  virtual void before(uint64_t index) = 0;
  virtual void after(uint64_t index) = 0;
};

class DeviceTimer {
 public:
  // `sms`: the device's multiprocessors (sizes the flush's grid). `clocks` may be null (no
  // NVML): samples then carry no clock readings.
  DeviceTimer(cudaStream_t stream, size_t l2_bytes, int sms, L2Mode mode,
              const ClockMonitor* clocks);
  ~DeviceTimer();
  DeviceTimer(const DeviceTimer&) = delete;
  DeviceTimer& operator=(const DeviceTimer&) = delete;

  // Calls `enqueue` settings.warmup times, then samples it until the stopping rule says stop.
  // Every call, warm-up included, is made the same way: a gate that the host opens only once the
  // whole call is enqueued (not for the series' first call: see timer.cpp), hooks->before,
  // [flush L2], start event, enqueue, stop event, hooks->after. `hooks` may be null (the bandwidth probes, weight preparation). With a
  // `recorder`, the harness's own work is tagged (core/timing/gpu_activity.h) so an audit can tell it
  // from the backend's.
  Sampling sample(const std::function<void()>& enqueue, const SampleSettings& settings,
                  const ProgressFn& on_progress = {}, CallHooks* hooks = nullptr,
                  ActivityRecorder* recorder = nullptr);

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

// Host backends: wall time of each call of `run`, which must be synchronous; `hooks` (may be
// null) around every call, warm-up included, outside the timed span.
Sampling sample_host(const std::function<void()>& run, const SampleSettings& settings,
                     const ProgressFn& on_progress = {}, CallHooks* hooks = nullptr);

// Times cudaMemcpyAsync copies of `bytes` device to device (see CopyBandwidth).
CopyBandwidth measure_copy_bandwidth(DeviceTimer& timer, size_t bytes);

// Times streaming reads of `bytes` (a multiple of 16) on a device with `sms` multiprocessors.
ReadBandwidth measure_read_bandwidth(DeviceTimer& timer, size_t bytes, int sms);

}  // namespace mish
