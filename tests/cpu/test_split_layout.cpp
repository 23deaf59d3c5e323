// The output layouts of the fp16 row split (row_split_fp16.cuh), checked against layouts built
// independently: memory walked in storage order, numbering each element as it comes.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

#include "row_split_fp16.cuh"

namespace mish {
namespace {

struct Placed {
  int64_t row, col;
  int plane;
};

// Tile blocks in storage order: row tiles, their column blocks, hi then lo, rows, columns.
std::vector<Placed> tile_blocks_in_storage_order(int64_t rows, int64_t cols, int tile_rows,
                                                 int block_cols) {
  std::vector<Placed> order;
  for (int64_t tile = 0; tile * tile_rows < rows; ++tile)
    for (int64_t block = 0; block * block_cols < cols; ++block)
      for (int plane = 0; plane < 2; ++plane)
        for (int r = 0; r < tile_rows; ++r)
          for (int c = 0; c < block_cols; ++c)
            order.push_back({tile * tile_rows + r, block * block_cols + c, plane});
  return order;
}

TEST(SplitLayout, TileBlocksPlaceEveryElementWhereStorageOrderPutsIt) {
  for (const auto& [rows, cols, tile_rows, block_cols] :
       {std::tuple<int64_t, int64_t, int, int>{300, 200, 128, 64}, {128, 64, 128, 64},
        {5, 7, 2, 4}, {1, 1, 8, 8}}) {
    const SplitTileBlocks layout{nullptr, (cols + block_cols - 1) / block_cols, tile_rows,
                                 block_cols};
    const std::vector<Placed> order =
        tile_blocks_in_storage_order(rows, cols, tile_rows, block_cols);
    ASSERT_EQ(layout.elements(rows), static_cast<int64_t>(order.size()));
    EXPECT_EQ(layout.pieces(rows) * tile_rows * block_cols, layout.elements(rows));
    for (int64_t at = 0; at < static_cast<int64_t>(order.size()); ++at) {
      const Placed& e = order[at];
      ASSERT_EQ(layout.offset(e.row, e.col, e.plane), at)
          << rows << "x" << cols << " in " << tile_rows << "x" << block_cols << " blocks: row "
          << e.row << ", col " << e.col << ", plane " << e.plane;
    }
  }
}

TEST(SplitLayout, TileBlocksKeepAPlaneOfABlockInOneSpan) {
  const SplitTileBlocks layout{nullptr, 128, 128, 64};  // k = 8192
  const int64_t span = 128 * 64;
  for (const int64_t row : {0, 127, 128, 8191})
    for (const int64_t col : {0, 63, 64, 8191})
      for (const int plane : {0, 1}) {
        const int64_t box = ((row / 128) * 128 + col / 64) * 2 + plane;
        const int64_t at = layout.offset(row, col, plane);
        EXPECT_GE(at, box * span);
        EXPECT_LT(at, (box + 1) * span);
      }
  EXPECT_TRUE(layout.keeps_groups_of_four());
  EXPECT_EQ(layout.offset(5, 68 + 3, 1), layout.offset(5, 68, 1) + 3);
}

TEST(SplitLayout, RowsPutHiRowsThenLoRowsAStrideApart) {
  const int64_t rows = 3, cols = 5, stride = 8;
  const SplitRows layout{nullptr, rows, stride};
  std::set<int64_t> seen;
  for (int plane = 0; plane < 2; ++plane)
    for (int64_t row = 0; row < rows; ++row)
      for (int64_t col = 0; col < cols; ++col) {
        const int64_t at = layout.offset(row, col, plane);
        EXPECT_EQ(at, (plane * rows + row) * stride + col);
        seen.insert(at);
      }
  EXPECT_EQ(seen.size(), size_t(2 * rows * cols));
  EXPECT_EQ(layout.elements(), 2 * rows * stride);
  EXPECT_TRUE(layout.keeps_groups_of_four());
  EXPECT_FALSE((SplitRows{nullptr, rows, 6}).keeps_groups_of_four());
  EXPECT_FALSE((SplitTileBlocks{nullptr, 1, 8, 6}).keeps_groups_of_four());
}

}  // namespace
}  // namespace mish
