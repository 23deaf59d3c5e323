// Prepares an fp32 matrix [rows, cols] (row-major) for fp16x3 tensor-core products: each row is
// scaled by its own power of two 2^e (largest magnitude into [2^top_exponent, 2^(top_exponent+1)),
// split_precision.cuh), then split into hi = fp16(v * 2^e) and lo = fp16(v * 2^e - hi).
// Output layout, chosen so one TMA descriptor covers both halves: `split` holds the hi rows
// (rows 0 .. rows-1) and then the lo rows (rows .. 2*rows-1), each `split_row_stride` fp16 apart
// (>= cols); `unscale[r]` = 2^-e of row r, the exact factor that undoes the scale after the
// product.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/host_device.cuh"

namespace mish {

// Where a row's columns go within it.
// - in_order: column c at c; the columns past cols are left unwritten.
// - wgmma_a_fragments: permuted within each 32 columns so that a thread's wgmma A fragments (see
//   wgmma_m64n128k16 with A from registers, hopper_ptx.cuh) of the two k16 steps in them are 16
//   contiguous bytes: lane t % 4 == j finds, at 8j .. 8j + 7 of the 32, its four halves of the
//   first step (k = 2j, 2j + 1, 2j + 8, 2j + 9), then those of the second (16 more). The row is
//   zero-filled to split_row_stride, which must be a multiple of 32.
enum class SplitColumns { in_order, wgmma_a_fragments };

// The place of column `col` in its row.
MISH_HD int64_t split_column(int64_t col, SplitColumns order) {
  if (order == SplitColumns::in_order) return col;
  const int within = static_cast<int>(col % 32), step = within / 16, k = within % 16;
  return col - within + 8 * (k % 8 / 2) + 4 * step + k % 2 + 2 * (k / 8);
}

// Any cols; rows <= 2^31 - 1. Vectorized (16-byte loads, 8-byte or two 4-byte stores) when cols
// and split_row_stride are multiples of 4 and `src` and `split` are 16- and 8-byte aligned.
void launch_row_split_fp16(const float* src, int64_t rows, int64_t cols, int top_exponent,
                           __half* split, int64_t split_row_stride, float* unscale,
                           cudaStream_t stream, SplitColumns order = SplitColumns::in_order);

}  // namespace mish
