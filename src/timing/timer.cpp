#include "timing/timer.h"

#include <fmt/format.h>

#include <chrono>

#include "common/errors.h"
#include "cuda_check.cuh"

namespace mish {

std::string to_string(L2Mode mode) { return mode == L2Mode::flush ? "flush" : "hot"; }

L2Mode parse_l2_mode(const std::string& name) {
  if (name == "flush") return L2Mode::flush;
  if (name == "hot") return L2Mode::hot;
  throw UsageError(fmt::format("unknown L2 mode '{}'; choose flush or hot", name));
}

DeviceTimer::DeviceTimer(cudaStream_t stream, size_t l2_bytes, L2Mode mode)
    : stream_(stream), mode_(mode) {
  if (mode_ == L2Mode::flush) {
    flush_bytes_ = 2 * l2_bytes;
    MISH_CUDA_CHECK(cudaMalloc(&flush_buffer_, flush_bytes_));
  }
  MISH_CUDA_CHECK(cudaEventCreate(&start_));
  MISH_CUDA_CHECK(cudaEventCreate(&stop_));
}

DeviceTimer::~DeviceTimer() {
  if (flush_buffer_ != nullptr) MISH_CUDA_CHECK_NOTHROW(cudaFree(flush_buffer_));
  if (start_ != nullptr) MISH_CUDA_CHECK_NOTHROW(cudaEventDestroy(start_));
  if (stop_ != nullptr) MISH_CUDA_CHECK_NOTHROW(cudaEventDestroy(stop_));
}

void DeviceTimer::flush_l2(int round) {
  if (mode_ == L2Mode::flush)
    MISH_CUDA_CHECK(cudaMemsetAsync(flush_buffer_, round & 0xff, flush_bytes_, stream_));
}

std::vector<double> DeviceTimer::sample(const std::function<void()>& enqueue,
                                        const SampleSettings& settings) {
  for (int i = 0; i < settings.warmup; ++i) {
    flush_l2(i);
    enqueue();
  }
  std::vector<double> samples;
  samples.reserve(settings.iters);
  for (int i = 0; i < settings.iters; ++i) {
    flush_l2(i);
    MISH_CUDA_CHECK(cudaEventRecord(start_, stream_));
    enqueue();
    MISH_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    MISH_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    MISH_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    samples.push_back(ms);
  }
  return samples;
}

std::vector<double> sample_host(const std::function<void()>& run, const SampleSettings& settings) {
  for (int i = 0; i < settings.warmup; ++i) run();
  std::vector<double> samples;
  samples.reserve(settings.iters);
  for (int i = 0; i < settings.iters; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    const auto stop = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return samples;
}

}  // namespace mish
