// The small-batch backend on a device: every element verified against the float64 reference on
// odd shapes (edge tiles, k not a multiple of 4, several 64-row blocks) and distributions; the
// FP32 bar (max |error| <= 1e-5) on full-width small batches, with split-K spreading them over
// every SM; no worse than cuBLAS FP32 on unit-variance inputs; and bit-identical outputs from one
// run to the next, as the fixed-order reduction promises.
#include <gtest/gtest.h>

#include <vector>

#include "gpu_test_support.h"

namespace mish {
namespace {

TEST(Splitk, VerifiesOnOddShapesAndDistributions) {
  MISH_REQUIRE_GPU();
  const Problem problems[] = {
      test_shape(1, 200, 100),                           // one row, partial tile and chunk
      test_shape(7, 131, 70, Distribution::wide),        // k % 4 != 0: 4-byte x staging; odd n
      test_shape(64, 300, 1600, Distribution::normal),   // a full 64-row block, 13 chunks
      test_shape(100, 257, 513),                         // two 64-row blocks, n just past a tile
      test_shape(9, 4100, 1000, Distribution::normal),   // 16-row instantiation, partial last tile
      test_shape(30, 520, 2049, Distribution::wide),     // 32-row instantiation, one k past a chunk
      test_shape(16, 1000, 3000, Distribution::normal_unit),
  };
  for (const Problem& p : problems) expect_verified(short_run({"splitk"}, p).at(0), p);
}

// Full width, so W is the whole 268 MB: the bar, and every SM takes part at m = 1.
TEST(Splitk, SmallBatchesMeetTheFp32BarAndSpreadOverEverySm) {
  MISH_REQUIRE_GPU();
  for (const Problem& p : {test_shape(1, 8192, 8192), test_shape(8, 8192, 8192),
                           test_shape(64, 8192, 8192), test_shape(33, 8190, 8190)}) {
    const BackendResult r = short_run({"splitk"}, p).at(0);
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
  const Problem p = test_shape(64, 8192, 8192, Distribution::normal_unit);
  const std::vector<BackendResult> results = short_run({"fused", "splitk"}, p);
  ASSERT_EQ(results.size(), 2u);
  ASSERT_TRUE(results[0].verification && results[1].verification);
  EXPECT_EQ(results[1].verification->nonfinite, 0u);
  EXPECT_LE(results[1].verification->mismatches, results[0].verification->mismatches)
      << "splitk max abs " << results[1].verification->max_abs << ", fused "
      << results[0].verification->max_abs;
}

// The same inputs through two backend instances, three runs in all, the output poisoned before
// each: the bytes agree exactly, whichever CTA of a tile arrives last in each run.
TEST(Splitk, OutputIsBitIdenticalFromRunToRun) {
  MISH_REQUIRE_GPU();
  for (const Problem& p : {test_shape(8, 4096, 4096), test_shape(100, 257, 513),
                           test_shape(1, 8192, 8192), test_shape(64, 8192, 8192)})
    expect_bit_identical_with_split_k("splitk", p);
}

}  // namespace
}  // namespace mish
