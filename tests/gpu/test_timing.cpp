// Timing on the device: graph replays and cold-L2 samples verify; the stage breakdown adds up to
// the whole pass; a capture that cannot succeed is an error that leaves the stream usable.
#include <gtest/gtest.h>

#include <cmath>

#include "cuda/cuda_check.cuh"
#include "gpu_test_support.h"
#include "run/runner.h"
#include "timing/graph.h"

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
  config.sampling.l2 = L2Mode::hot;
  config.sampling.iters = 10;
  config.quiet = true;
  const RunOutcome outcome = run_builtin_backends(config);
  const BackendResult& r = find(outcome.runs.at(0), "fused");
  EXPECT_EQ(r.status, Status::ok) << r.reason;
  EXPECT_EQ(r.stats.count, 10);
  EXPECT_EQ(r.gate_timeouts, 0);
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
