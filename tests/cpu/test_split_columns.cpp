// The column orders of the fp16 row split (row_split_fp16.cuh): in order, and the wgmma A
// fragment order, checked against the fragment layout of wgmma's A operand in registers as the
// PTX ISA gives it (lane (g, t) of a warp holds k = 2t, 2t+1, 2t+8, 2t+9 of each k16 step).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>

#include "row_split_fp16.cuh"

namespace mish {
namespace {

TEST(SplitColumns, InOrderKeepsEveryColumn) {
  for (int64_t col : {int64_t(0), int64_t(1), int64_t(31), int64_t(32), int64_t(1) << 40})
    EXPECT_EQ(split_column(col, SplitColumns::in_order), col);
}

TEST(SplitColumns, FragmentOrderPermutesEach32Columns) {
  for (int64_t base : {int64_t(0), int64_t(32), int64_t(8160), int64_t(1) << 35}) {
    std::set<int64_t> places;
    for (int64_t c = base; c < base + 32; ++c) {
      const int64_t at = split_column(c, SplitColumns::wgmma_a_fragments);
      EXPECT_GE(at, base) << c;
      EXPECT_LT(at, base + 32) << c;
      places.insert(at);
    }
    EXPECT_EQ(places.size(), 32u) << base;
  }
}

// Lane t % 4 == j reads 8 halves from 8j: its four of the first k16 step, then its four of the
// second, each in register order (k pairs 2j, 2j + 1 then 2j + 8, 2j + 9).
TEST(SplitColumns, ALanesHalvesOfTwoStepsAreContiguous) {
  for (int64_t base : {int64_t(0), int64_t(64), int64_t(4096 + 32)}) {
    for (int j = 0; j < 4; ++j) {
      const int ks[8] = {2 * j,      2 * j + 1,      2 * j + 8,      2 * j + 9,
                         16 + 2 * j, 16 + 2 * j + 1, 16 + 2 * j + 8, 16 + 2 * j + 9};
      for (int h = 0; h < 8; ++h)
        EXPECT_EQ(split_column(base + ks[h], SplitColumns::wgmma_a_fragments), base + 8 * j + h)
            << "lane " << j << ", half " << h;
    }
  }
}

}  // namespace
}  // namespace mish
