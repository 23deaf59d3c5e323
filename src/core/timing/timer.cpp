#include "core/timing/timer.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>

#include "base/common/elapsed.h"
#include "base/common/errors.h"
#include "base/cuda/cuda_check.cuh"
#include "base/cuda/device_buffer.h"
#include "base/cuda/read_probe.cuh"
#include "base/cuda/stream_gate.cuh"
#include "core/timing/activity_recorder.h"
#include "core/timing/statistics.h"

namespace mish {
namespace {

constexpr auto kGateTimeoutNs = static_cast<unsigned long long>(kGateTimeoutSeconds * 1e9);

// The loop shared by device and host sampling: calls until the rule says stop, the first
// `warmup` of them untimed. `take_call` makes call `index` and returns its time.
Sampling sample_until_done(const SampleSettings& settings, const ProgressFn& on_progress,
                           const std::function<double(Sampling&, uint64_t)>& take_call) {
  Sampling sampling;
  for (int i = 0; i < settings.warmup; ++i) take_call(sampling, sampling.calls++);
  sampling.clocks.clear();
  if (!settings.adaptive()) sampling.samples_ms.reserve(settings.iters);
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    sampling.samples_ms.push_back(take_call(sampling, sampling.calls++));
    const double elapsed = elapsed_ms(start) / 1e3;
    if (on_progress) on_progress(progress_fraction(settings, sampling.samples_ms, elapsed));
    if (const auto reason = should_stop(settings, sampling.samples_ms, elapsed)) {
      sampling.stopped_by = *reason;
      return sampling;
    }
  }
}

}  // namespace

std::string to_string(L2Mode mode) { return mode == L2Mode::flush ? "flush" : "hot"; }

L2Mode parse_l2_mode(const std::string& name) {
  if (name == "flush") return L2Mode::flush;
  if (name == "hot") return L2Mode::hot;
  throw UsageError(fmt::format("unknown L2 mode '{}'; choose flush or hot", name));
}

DeviceTimer::DeviceTimer(cudaStream_t stream, size_t l2_bytes, int sms, L2Mode mode,
                         const ClockMonitor* clocks)
    : stream_(stream),
      clocks_(clocks),
      sms_(sms),
      flush_buffer_(l2_flush_bytes(l2_bytes, mode) / sizeof(float4)),
      flush_sink_(flush_buffer_.size() > 0 ? read_sink_floats(sms) : 0) {
  if (flush_buffer_.size() > 0)
    MISH_CUDA_CHECK(cudaMemsetAsync(flush_buffer_.get(), 1, flush_buffer_.bytes(), stream_));
  MISH_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&gate_), sizeof(GateFlags),
                                cudaHostAllocMapped));
  MISH_CUDA_CHECK(cudaEventCreate(&start_));
  MISH_CUDA_CHECK(cudaEventCreate(&stop_));
}

DeviceTimer::~DeviceTimer() {
  if (gate_ != nullptr) MISH_CUDA_CHECK_NOTHROW(cudaFreeHost(gate_));
  if (start_ != nullptr) MISH_CUDA_CHECK_NOTHROW(cudaEventDestroy(start_));
  if (stop_ != nullptr) MISH_CUDA_CHECK_NOTHROW(cudaEventDestroy(stop_));
}

// A read, not a write, of twice the L2: a write would leave the L2 full of dirty lines, whose
// write-back to memory would then run inside the next timed sample, costing it the time to write
// an L2's worth of bytes (docs/timing.md).
void DeviceTimer::flush_l2() {
  if (flush_buffer_.size() > 0)  // flush mode on a device that reports an L2
    launch_l2_evicting_read(flush_buffer_.get(), flush_buffer_.size(), flush_sink_.get(), sms_,
                            stream_);
}

Sampling DeviceTimer::sample(const std::function<void()>& enqueue, const SampleSettings& settings,
                             const ProgressFn& on_progress, CallHooks* hooks,
                             ActivityRecorder* recorder) {
  MISH_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return sample_until_done(settings, on_progress, [&](Sampling& sampling, uint64_t index) {
    // A series' first call runs ungated: the first launch of a kernel loads its module (CUDA's
    // lazy loading), which waits for the device, and so for a closed gate.
    const bool gated = index > 0;
    gate_->open = 0;
    gate_->timed_out = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    {
      ActivityTag tag(recorder, harness_tag(index, TagRole::before));
      if (gated) launch_stream_gate(gate_, kGateTimeoutNs, stream_);
      if (hooks != nullptr) hooks->before(index);
      flush_l2();
      MISH_CUDA_CHECK(cudaEventRecord(start_, stream_));
    }
    enqueue();
    {
      ActivityTag tag(recorder, harness_tag(index, TagRole::after));
      MISH_CUDA_CHECK(cudaEventRecord(stop_, stream_));
      if (hooks != nullptr) hooks->after(index);
    }
    std::atomic_thread_fence(std::memory_order_seq_cst);
    gate_->open = 1;
    // Read the clocks while the sample runs: host-side, outside the GPU's timed region.
    if (clocks_ != nullptr) sampling.clocks.push_back(clocks_->read());
    MISH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (gated && gate_->timed_out != 0 && index >= uint64_t(settings.warmup))
      ++sampling.gate_timeouts;
    float ms = 0.0f;
    MISH_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return double(ms);
  });
}

AuditReading DeviceTimer::audit(const std::function<void()>& enqueue, int iterations) {
  MISH_CUDA_CHECK(cudaDeviceSynchronize());
  const auto start = std::chrono::steady_clock::now();
  MISH_CUDA_CHECK(cudaEventRecord(start_, stream_));
  for (int i = 0; i < iterations; ++i) enqueue();
  MISH_CUDA_CHECK(cudaEventRecord(stop_, stream_));
  MISH_CUDA_CHECK(cudaDeviceSynchronize());
  AuditReading reading;
  reading.iterations = iterations;
  reading.wall_ms = elapsed_ms(start);
  float events_ms = 0.0f;
  MISH_CUDA_CHECK(cudaEventElapsedTime(&events_ms, start_, stop_));
  reading.events_ms = events_ms;
  return reading;
}

Sampling sample_host(const std::function<void()>& run, const SampleSettings& settings,
                     const ProgressFn& on_progress, CallHooks* hooks) {
  return sample_until_done(settings, on_progress, [&](Sampling&, uint64_t index) {
    if (hooks != nullptr) hooks->before(index);
    const auto start = std::chrono::steady_clock::now();
    run();
    const double ms = elapsed_ms(start);
    if (hooks != nullptr) hooks->after(index);
    return ms;
  });
}

namespace {

// One probe series: a few warm-ups, then the median of 20 samples (flushed like every series).
double probe_median_ms(DeviceTimer& timer, const std::function<void()>& enqueue) {
  SampleSettings settings;
  settings.warmup = 3;
  settings.iters = 20;
  return summarize(timer.sample(enqueue, settings).samples_ms).median;
}

// 1e9 bytes per second.
double gb_per_s(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0; }

}  // namespace

CopyBandwidth measure_copy_bandwidth(DeviceTimer& timer, size_t bytes) {
  const cudaStream_t stream = timer.stream();
  DeviceBuffer<unsigned char> source(bytes), destination(bytes);
  MISH_CUDA_CHECK(cudaMemsetAsync(source.get(), 1, bytes, stream));
  CopyBandwidth result;
  result.bytes_per_copy = bytes;
  result.median_ms = probe_median_ms(timer, [&] {
    MISH_CUDA_CHECK(cudaMemcpyAsync(destination.get(), source.get(), bytes,
                                    cudaMemcpyDeviceToDevice, stream));
  });
  result.gb_per_s = gb_per_s(2.0 * double(bytes), result.median_ms);
  return result;
}

ReadBandwidth measure_read_bandwidth(DeviceTimer& timer, size_t bytes, int sms) {
  const cudaStream_t stream = timer.stream();
  const size_t count = bytes / sizeof(float4);
  DeviceBuffer<float4> data(count);
  DeviceBuffer<float> sink(read_sink_floats(sms));
  MISH_CUDA_CHECK(cudaMemsetAsync(data.get(), 1, data.bytes(), stream));  // never time zeros
  ReadBandwidth best;
  best.bytes = data.bytes();
  for (const ReadProbeShape& shape : kReadProbeShapes) {
    const double median_ms = probe_median_ms(
        timer, [&] { launch_read_probe(data.get(), count, sink.get(), sms, shape, stream); });
    if (best.median_ms == 0 || median_ms < best.median_ms) best.median_ms = median_ms;
  }
  best.gb_per_s = gb_per_s(double(best.bytes), best.median_ms);
  return best;
}

}  // namespace mish
