// The fused Hopper backend end to end through the runner: every element verified against the
// float64 reference, on the default problem (with the accuracy bar of max |error| <= 1e-5) and on
// smaller shapes that exercise one tile, a partial promotion chunk and several tiles per CTA.
#include <gtest/gtest.h>

#include "backends/registry.h"
#include "gpu_test_support.h"
#include "run/runner.h"

namespace mish {
namespace {

bool hopper_present() {
  const std::optional<DeviceInfo> device = query_device();
  return device && device->cc_major == 9 && device->cc_minor == 0;
}

BackendResult run_wgmma(const Problem& problem) {
  RunConfig config;
  config.problems = {problem};
  config.backends = {"wgmma"};
  config.sampling.warmup = 1;
  config.sampling.iters = 2;
  config.quiet = true;
  const RunOutcome outcome = run_builtin_backends(config);
  return outcome.runs.at(0).results.at(0);
}

Problem shape(int64_t m, int64_t n, int64_t k, Distribution distribution, uint64_t seed) {
  Problem p;
  p.m = m, p.n = n, p.k = k, p.distribution = distribution, p.seed = seed;
  return p;
}

TEST(Wgmma, DefaultProblemBeatsTheFp32Bar) {
  MISH_REQUIRE_GPU();
  if (!hopper_present()) GTEST_SKIP() << "wgmma needs a compute capability 9.0 device";
  const BackendResult r = run_wgmma(Problem{});
  ASSERT_EQ(r.status, Status::ok) << r.reason;
  ASSERT_TRUE(r.verification.has_value());
  EXPECT_EQ(r.verification->mismatches, 0u);
  EXPECT_EQ(r.verification->checked, Problem{}.y_count());
  EXPECT_LE(r.verification->max_abs, 1e-5);
}

TEST(Wgmma, VerifiesOnOtherShapes) {
  MISH_REQUIRE_GPU();
  if (!hopper_present()) GTEST_SKIP() << "wgmma needs a compute capability 9.0 device";
  const Problem problems[] = {
      shape(128, 128, 64, Distribution::kernelbench, 1),   // one tile, one k block
      shape(256, 384, 448, Distribution::normal, 2),       // a partial promotion chunk
      shape(256, 256, 512, Distribution::wide, 4),         // zero rows, 15 binades
      shape(2048, 4096, 1024, Distribution::kernelbench, 3),  // several tiles per CTA
      shape(1, 200, 100, Distribution::normal, 5),          // one row, partial tile and k block
      shape(129, 131, 70, Distribution::wide, 6),           // edge tiles in m and n, odd n
      shape(333, 2049, 3001, Distribution::kernelbench, 7),  // odd k: scalar split, padded rows
  };
  for (const Problem& p : problems) {
    const BackendResult r = run_wgmma(p);
    EXPECT_EQ(r.status, Status::ok) << p.shape() << ": " << r.reason;
    ASSERT_TRUE(r.verification.has_value()) << p.shape();
    EXPECT_EQ(r.verification->mismatches, 0u) << p.shape();
  }
}

}  // namespace
}  // namespace mish
