// The fused Hopper backend end to end through the runner: every element verified against the
// float64 reference, on the default problem (with the accuracy bar of max |error| <= 1e-5) and on
// smaller shapes that exercise one tile, a partial promotion chunk and several tiles per CTA;
// the small-batch paths (split-K over CTAs, and at m <= 64 the transposed tile at each of its
// padded widths) on odd shapes, spread over every SM at full width, and bit-identical from run to
// run.
#include <gtest/gtest.h>

#include <vector>

#include "gpu_test_support.h"
#include "wgmma_fp16x3.cuh"

namespace mish {
namespace {

bool hopper_present() {
  const std::optional<DeviceInfo> device = query_device();
  return device && device->cc_major == 9 && device->cc_minor == 0;
}

#define MISH_REQUIRE_HOPPER()                                                               \
  do {                                                                                      \
    MISH_REQUIRE_GPU();                                                                     \
    if (!hopper_present()) GTEST_SKIP() << "wgmma needs a compute capability 9.0 device"; \
  } while (0)

TEST(Wgmma, DefaultProblemBeatsTheFp32Bar) {
  MISH_REQUIRE_HOPPER();
  const BackendResult r = short_run({"wgmma"}, Problem{}).at(0);
  expect_verified(r, Problem{});
  EXPECT_LE(r.verification->max_abs, 1e-5);
  EXPECT_EQ(r.details.at("split_k"), 1) << "512 tiles cover the SMs without split-K";
}

TEST(Wgmma, VerifiesOnOtherShapes) {
  MISH_REQUIRE_HOPPER();
  const Problem problems[] = {
      test_shape(128, 128, 64, Distribution::kernelbench, 1),     // one tile, one k block
      test_shape(256, 384, 448, Distribution::normal, 2),         // a partial promotion chunk
      test_shape(256, 256, 512, Distribution::wide, 4),           // zero rows, 15 binades
      test_shape(2048, 4096, 1024, Distribution::kernelbench, 3),  // several tiles per CTA
      test_shape(1, 200, 100, Distribution::normal, 5),           // one row, partial tile, k block
      test_shape(129, 131, 70, Distribution::wide, 6),            // edge tiles in m and n, odd n
      test_shape(333, 2049, 3001, Distribution::kernelbench, 7),  // odd k: scalar split, split-K
      test_shape(40, 17000, 700, Distribution::normal, 8),  // transposed, 133 tiles: on 132 SMs
                                                            // one CTA takes two
      test_shape(24, 300, 1000, Distribution::wide, 9),     // transposed at N = 32, rows past m
  };
  for (const Problem& p : problems) expect_verified(short_run({"wgmma"}, p).at(0), p);
}

// Split-K slices of uneven length (the last one shorter), transposed (m <= 64, each padded width)
// and not, several tiles per CTA, and slices shorter than a promotion chunk.
TEST(Wgmma, SplitKVerifiesOnOddShapes) {
  MISH_REQUIRE_HOPPER();
  struct Case {
    Problem problem;
    int slices;
  };
  const Case cases[] = {
      {test_shape(1, 200, 100, Distribution::normal, 11), 2},      // two k blocks, one each
      {test_shape(64, 384, 3001, Distribution::wide, 12), 3},      // transposed at N = 64, odd k
      {test_shape(9, 700, 2000, Distribution::kernelbench, 17), 4},  // N = 16, 9 of its rows
      {test_shape(31, 129, 1500, Distribution::normal, 18), 2},      // N = 32, a 1-column tile
      {test_shape(65, 131, 2049, Distribution::kernelbench, 13), 5},  // one row past shared rows
      {test_shape(300, 1000, 1500, Distribution::normal, 14), 4},  // 24 tiles x 4 on few SMs each
      {test_shape(33, 8192, 4096, Distribution::kernelbench, 15), 7},  // 64 tiles, 7 uneven slices
      {test_shape(16, 1000, 3000, Distribution::normal_unit, 16), 0},  // the plan's choice
  };
  for (const Case& c : cases) {
    const BackendResult r =
        short_run({"wgmma"}, c.problem, {{"wgmma", {{"slices", c.slices}}}}).at(0);
    expect_verified(r, c.problem);
    if (c.slices > 0) EXPECT_EQ(r.details.at("split_k"), c.slices) << c.problem.shape();
    EXPECT_EQ(r.details.at("transposed_n"), wgmma_transposed_n(c.problem.m))
        << c.problem.shape();
  }
}

// Full width: the FP32 bar, and the 64 tiles of 128 x 128 spread over the SMs by split-K as the
// plan says (on 132 SMs: 2 slices, 128 CTAs).
TEST(Wgmma, SmallBatchesMeetTheFp32BarAndSpreadOverTheSms) {
  MISH_REQUIRE_HOPPER();
  const int sms = query_device()->sms;
  for (const Problem& p : {test_shape(1, 8192, 8192), test_shape(64, 8192, 8192),
                           test_shape(128, 8192, 8192)}) {
    const BackendResult r = short_run({"wgmma"}, p).at(0);
    expect_verified(r, p);
    EXPECT_LE(r.verification->max_abs, 1e-5) << p.shape();
    const WgmmaPlan plan = plan_wgmma_layer(p.m, p.n, p.k, sms, 0);
    EXPECT_EQ(r.details.at("ctas"), plan.ctas) << p.shape();
    EXPECT_EQ(r.details.at("split_k"), plan.slices) << p.shape();
    EXPECT_GT(plan.ctas, sms / 2) << p.shape();
    if (sms >= 128) EXPECT_EQ(plan.slices, 2) << p.shape();
  }
}

// The parts of a tile are added in a fixed order, whichever CTA finishes last.
TEST(Wgmma, SplitKOutputIsBitIdenticalFromRunToRun) {
  MISH_REQUIRE_HOPPER();
  for (const Problem& p : {test_shape(8, 8192, 8192), test_shape(20, 8192, 8192),
                           test_shape(64, 8192, 8192), test_shape(100, 4096, 4096)})
    expect_bit_identical_with_split_k("wgmma", p);
}

}  // namespace
}  // namespace mish
