// Timing on the device: graph replays and cold-L2 samples verify; the stage breakdown adds up to
// the whole pass; the L2 flush evicts and leaves nothing to write back; a capture that cannot
// succeed is an error that leaves the stream usable.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "base/cuda/cuda_check.cuh"
#include "base/cuda/device_buffer.h"
#include "base/cuda/read_probe.cuh"
#include "base/env/environment.h"
#include "core/timing/graph.h"
#include "core/timing/statistics.h"
#include "core/timing/timer.h"
#include "exec/executor/device_context.h"
#include "gpu_test_support.h"
#include "run/runner.h"

namespace mish {
namespace {

const BackendResult& find(const ProblemRun& run, const std::string& name) {
  for (const BackendResult& r : run.results)
    if (r.backend == name) return r;
  throw std::runtime_error("no result for " + name);
}

TEST(GpuTiming, GraphAndFlushVerifyAndStagesAddUp) {
  MISH_REQUIRE_GPU();
  RunConfig config;  // the default problem, L2 flushed before every sample
  config.backends = {"separate", "fused", "cublaslt"};
  config.graph = true;
  config.sampling.iters = 30;
  config.quiet = true;
  const RunOutcome outcome = run_builtin_backends(config);
  ASSERT_EQ(outcome.devices.size(), 1u);
  ASSERT_TRUE(outcome.devices[0].copy_bandwidth);
  EXPECT_GT(outcome.devices[0].copy_bandwidth->gb_per_s, 100.0);
  const ProblemRun& run = outcome.runs.at(0);
  for (const char* name : {"separate", "fused", "cublaslt"}) {
    const BackendResult& r = find(run, name);
    ASSERT_EQ(r.status, Status::ok) << name << ": " << r.reason;
    ASSERT_TRUE(r.verification && r.verification->passed()) << name;
    ASSERT_TRUE(r.graph_verification && r.graph_verification->passed()) << name;
    ASSERT_TRUE(r.graph) << name;
    EXPECT_EQ(r.graph->stats.count, 30) << name;
    EXPECT_GE(r.graph_nodes, 2u) << name;  // GEMM and at least one epilogue kernel
    ASSERT_EQ(r.stages.size(), 2u) << name;
  }
  for (const char* name : {"separate", "fused"}) {
    const BackendResult& r = find(run, name);
    const double sum = r.stages[0].timing.stats.median + r.stages[1].timing.stats.median;
    EXPECT_NEAR(sum / r.stats.median, 1.0, 0.05)
        << name << ": gemm " << r.stages[0].timing.stats.median << " ms + epilogue "
        << r.stages[1].timing.stats.median << " ms vs whole " << r.stats.median << " ms";
  }
}

TEST(GpuTiming, HotL2RunVerifies) {
  MISH_REQUIRE_GPU();
  RunConfig config;
  config.problems[0].m = 256;
  config.backends = {"fused"};
  config.execution.l2 = L2Mode::hot;
  config.sampling.iters = 10;
  config.quiet = true;
  const RunOutcome outcome = run_builtin_backends(config);
  const BackendResult& r = find(outcome.runs.at(0), "fused");
  EXPECT_EQ(r.status, Status::ok) << r.reason;
  EXPECT_EQ(r.stats.count, 10);
  EXPECT_EQ(r.gate_timeouts, 0);
}

// Median time of reading `bytes` once, sampled with the L2 in `mode`.
double read_median_ms(const DeviceInfo& device, size_t bytes, L2Mode mode) {
  Stream stream;
  DeviceTimer timer(stream.get(), device.l2_bytes, device.sms, mode, nullptr);
  DeviceBuffer<float4> data(bytes / sizeof(float4));
  DeviceBuffer<float> sink(read_sink_floats(device.sms));
  MISH_CUDA_CHECK(cudaMemsetAsync(data.get(), 1, data.bytes(), stream.get()));
  SampleSettings settings;
  settings.warmup = 3;
  settings.iters = 30;
  const Sampling sampling = timer.sample(
      [&] { launch_l2_evicting_read(data.get(), data.size(), sink.get(), device.sms,
                                    stream.get()); },
      settings);
  return summarize(sampling.samples_ms).median;
}

TEST(GpuTiming, FlushEvictsAndLeavesNothingToWriteBack) {
  MISH_REQUIRE_GPU();
  const std::optional<DeviceInfo> device = query_device(0, nullptr);
  ASSERT_TRUE(device);
  // Half the L2 stays cached from one hot sample to the next; the flush must evict it.
  const size_t fits = device->l2_bytes / 2 / 16 * 16;
  const double fits_hot = read_median_ms(*device, fits, L2Mode::hot);
  const double fits_flushed = read_median_ms(*device, fits, L2Mode::flush);
  // Four L2s stream from memory either way; a flush that left dirty lines behind would add their
  // write-back (an L2's worth of bytes) to every flushed sample.
  const size_t streams = device->l2_bytes * 4 / 16 * 16;
  const double streams_hot = read_median_ms(*device, streams, L2Mode::hot);
  const double streams_flushed = read_median_ms(*device, streams, L2Mode::flush);
  std::cout << "read of L2/2: hot " << fits_hot << " ms, flushed " << fits_flushed
            << " ms; of 4 x L2: hot " << streams_hot << " ms, flushed " << streams_flushed
            << " ms\n";
  EXPECT_GT(fits_flushed, 1.2 * fits_hot);
  EXPECT_LT(streams_flushed, 1.03 * streams_hot);
}

TEST(GpuTiming, FailedCaptureThrowsAndLeavesTheStreamUsable) {
  MISH_REQUIRE_GPU();
  cudaStream_t stream = nullptr;
  MISH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  // Synchronizing a capturing stream is illegal: the capture must fail, not crash.
  EXPECT_THROW(CapturedGraph(stream, [&] { MISH_CUDA_CHECK(cudaStreamSynchronize(stream)); }),
               GraphCaptureError);
  void* scratch = nullptr;
  MISH_CUDA_CHECK(cudaMallocAsync(&scratch, 1024, stream));
  MISH_CUDA_CHECK(cudaMemsetAsync(scratch, 0, 1024, stream));
  MISH_CUDA_CHECK(cudaFreeAsync(scratch, stream));
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  MISH_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace
}  // namespace mish
