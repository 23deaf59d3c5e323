// Prepares an fp32 matrix [rows, cols] (row-major) for fp16x3 tensor-core products: each row is
// scaled by its own power of two 2^e (largest magnitude into [2^top_exponent, 2^(top_exponent+1)),
// split_precision.cuh), then split into hi = fp16(v * 2^e) and lo = fp16(v * 2^e - hi), written
// where the output layout says; `unscale[r]` = 2^-e of row r, the exact factor that undoes the
// scale after the product.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "base/cuda/host_device.cuh"

namespace mish {

// Hi rows (0 .. rows-1), then lo rows (rows .. 2*rows-1), each `row_stride` fp16 apart (>= cols;
// the columns past cols are left unwritten), so that one TMA descriptor covers both halves.
struct SplitRows {
  __half* split = nullptr;
  int64_t rows = 0, row_stride = 0;

  MISH_HD int64_t offset(int64_t row, int64_t col, int plane) const {
    return (plane * rows + row) * row_stride + col;
  }
  // Groups of four elements that start at a multiple of 4 stay contiguous.
  bool keeps_groups_of_four() const { return row_stride % 4 == 0; }
  int64_t elements() const { return 2 * rows * row_stride; }
};

// The matrix in blocks of tile_rows x block_cols, each a [tile_rows][block_cols] row-major piece:
// for every tile of rows, its blocks along the columns in order, each block's hi piece and then its
// lo piece. So one plane of one block, what a TMA box of a tile and a k block holds, is a single
// span of memory, and a tile's blocks follow each other. Elements past the matrix's rows or cols
// (the last tile and block) are left unwritten: the caller zeroes them once.
struct SplitTileBlocks {
  __half* split = nullptr;
  int64_t blocks_per_row = 0;  // ceil(cols / block_cols)
  int tile_rows = 0, block_cols = 0;

  // The piece holding (row, col) of a plane: pieces are numbered in storage order.
  MISH_HD int64_t piece(int64_t row, int64_t col, int plane) const {
    return ((row / tile_rows) * blocks_per_row + col / block_cols) * 2 + plane;
  }
  MISH_HD int64_t offset(int64_t row, int64_t col, int plane) const {
    return (piece(row, col, plane) * tile_rows + row % tile_rows) * block_cols + col % block_cols;
  }
  bool keeps_groups_of_four() const { return block_cols % 4 == 0; }
  // Pieces (one plane of one block) and elements the layout spans for `rows` rows, edges included.
  int64_t pieces(int64_t rows) const {
    return 2 * ((rows + tile_rows - 1) / tile_rows) * blocks_per_row;
  }
  int64_t elements(int64_t rows) const { return pieces(rows) * tile_rows * block_cols; }
};

// Any cols; rows <= 2^31 - 1. Vectorized (16-byte loads, 8-byte stores) when cols is a multiple
// of 4, the layout keeps groups of four together, `src` is 16-byte and the split 8-byte aligned.
void launch_row_split_fp16(const float* src, int64_t rows, int64_t cols, int top_exponent,
                           const SplitRows& out, float* unscale, cudaStream_t stream);
void launch_row_split_fp16(const float* src, int64_t rows, int64_t cols, int top_exponent,
                           const SplitTileBlocks& out, float* unscale, cudaStream_t stream);

}  // namespace mish
