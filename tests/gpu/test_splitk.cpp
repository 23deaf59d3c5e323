// The small-batch backend on a device: every element verified against the float64 reference on
// odd shapes (edge tiles, k not a multiple of 4, several 64-row blocks) and distributions; the
// FP32 bar (max |error| <= 1e-5) on full-width small batches, with split-K spreading them over
// every SM; no worse than cuBLAS FP32 on unit-variance inputs; and bit-identical outputs from one
// run to the next, as the fixed-order reduction promises.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "backends/registry.h"
#include "cuda/device_buffer.h"
#include "problem/generate_device.cuh"
#include "gpu_test_support.h"
#include "run/runner.h"

namespace mish {
namespace {

Problem shape(int64_t m, int64_t n, int64_t k,
              Distribution distribution = Distribution::kernelbench, uint64_t seed = 1) {
  Problem p;
  p.m = m, p.n = n, p.k = k, p.distribution = distribution, p.seed = seed;
  return p;
}

std::vector<BackendResult> run_backends(const std::vector<std::string>& backends,
                                        const Problem& problem) {
  RunConfig config;
  config.problems = {problem};
  config.backends = backends;
  config.sampling.warmup = 1;
  config.sampling.iters = 2;
  config.quiet = true;
  return run_builtin_backends(config).runs.at(0).results;
}

void expect_verified(const BackendResult& r, const Problem& p) {
  EXPECT_EQ(r.status, Status::ok) << p.shape() << ": " << r.reason;
  ASSERT_TRUE(r.verification.has_value()) << p.shape();
  EXPECT_EQ(r.verification->checked, p.y_count()) << p.shape();
  EXPECT_EQ(r.verification->mismatches, 0u) << p.shape();
  EXPECT_EQ(r.verification->nonfinite, 0u) << p.shape();
}

TEST(Splitk, VerifiesOnOddShapesAndDistributions) {
  MISH_REQUIRE_GPU();
  const Problem problems[] = {
      shape(1, 200, 100),                           // one row, partial tile and chunk
      shape(7, 131, 70, Distribution::wide),        // k % 4 != 0: 4-byte x staging; odd n
      shape(64, 300, 1600, Distribution::normal),   // a full 64-row block, 13 chunks
      shape(100, 257, 513),                         // two 64-row blocks, n just past a tile
      shape(9, 4100, 1000, Distribution::normal),   // 16-row instantiation, partial last tile
      shape(30, 520, 2049, Distribution::wide),     // 32-row instantiation, one k past a chunk
      shape(16, 1000, 3000, Distribution::normal_unit),
  };
  for (const Problem& p : problems) expect_verified(run_backends({"splitk"}, p).at(0), p);
}

// Full width, so W is the whole 268 MB: the bar, and every SM takes part at m = 1.
TEST(Splitk, SmallBatchesMeetTheFp32BarAndSpreadOverEverySm) {
  MISH_REQUIRE_GPU();
  for (const Problem& p : {shape(1, 8192, 8192), shape(8, 8192, 8192), shape(64, 8192, 8192),
                           shape(33, 8190, 8190)}) {
    const BackendResult r = run_backends({"splitk"}, p).at(0);
    expect_verified(r, p);
    EXPECT_LE(r.verification->max_abs, 1e-5) << p.shape();
    const int ctas = r.details.at("ctas"), sms = r.details.at("sms");
    EXPECT_GE(ctas, p.m > 32 ? sms * 9 / 10 : sms) << p.shape() << ": " << r.details.dump();
    if (p.m == 1) EXPECT_GT(r.details.at("split_k").get<int>(), 1);
  }
}

// On x, W ~ N(0, 1) even cuBLAS FP32 misses an absolute 1e-4 (outputs ~ +-90): the bar there is
// to miss it no more often than cuBLAS does.
TEST(Splitk, UnitVarianceInputsNoWorseThanCublasFp32) {
  MISH_REQUIRE_GPU();
  const Problem p = shape(64, 8192, 8192, Distribution::normal_unit);
  const std::vector<BackendResult> results = run_backends({"fused", "splitk"}, p);
  ASSERT_EQ(results.size(), 2u);
  ASSERT_TRUE(results[0].verification && results[1].verification);
  EXPECT_EQ(results[1].verification->nonfinite, 0u);
  EXPECT_LE(results[1].verification->mismatches, results[0].verification->mismatches)
      << "splitk max abs " << results[1].verification->max_abs << ", fused "
      << results[0].verification->max_abs;
}

std::vector<float> to_host(const DeviceBuffer<float>& buffer) {
  std::vector<float> host(buffer.size());
  MISH_CUDA_CHECK(cudaMemcpy(host.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost));
  return host;
}

// The same inputs through two backend instances, three runs in all, the output poisoned before
// each: the bytes agree exactly, whichever CTA of a tile arrives last in each run.
TEST(Splitk, OutputIsBitIdenticalFromRunToRun) {
  MISH_REQUIRE_GPU();
  for (const Problem& p : {shape(8, 4096, 4096), shape(100, 257, 513), shape(1, 8192, 8192),
                           shape(64, 8192, 8192)}) {
    DeviceBuffer<float> x(p.x_count()), w(p.w_count()), b(p.n), y(p.y_count());
    const float bound = p.init_bound();
    generate_on_device(p.distribution, p.seed, Tensor::x, x.get(), x.size(), p.k, bound, nullptr);
    generate_on_device(p.distribution, p.seed, Tensor::w, w.get(), w.size(), p.k, bound, nullptr);
    generate_on_device(p.distribution, p.seed, Tensor::b, b.get(), b.size(), p.n, bound, nullptr);
    const Tensors t{x.get(), w.get(), b.get(), y.get()};
    std::vector<std::vector<float>> outputs;
    for (int instance = 0; instance < 2; ++instance) {
      const std::unique_ptr<Backend> backend = make_builtin_backend("splitk");
      backend->setup(p, t, nullptr);
      backend->prepack(t, nullptr);
      for (int run = 0; run < (instance == 0 ? 2 : 1); ++run) {
        MISH_CUDA_CHECK(cudaMemset(y.get(), 0xff, y.bytes()));
        backend->run(t, nullptr);
        MISH_CUDA_CHECK(cudaDeviceSynchronize());
        outputs.push_back(to_host(y));
      }
      EXPECT_GT(backend->describe().at("split_k").get<int>(), 1) << p.shape();
    }
    for (size_t i = 1; i < outputs.size(); ++i)
      EXPECT_EQ(std::memcmp(outputs[i].data(), outputs[0].data(), y.bytes()), 0)
          << p.shape() << ": run " << i << " differs from run 0";
  }
}

}  // namespace
}  // namespace mish
