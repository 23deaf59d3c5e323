// Prepares an fp32 matrix [rows, cols] (row-major) for fp16x3 tensor-core products: each row is
// scaled by its own power of two 2^e (largest magnitude into [2^top_exponent, 2^(top_exponent+1)),
// split_precision.cuh), then split into hi = fp16(v * 2^e) and lo = fp16(v * 2^e - hi).
// Output layout, chosen so one TMA descriptor covers both halves: `split` holds the hi rows
// (rows 0 .. rows-1) and then the lo rows (rows .. 2*rows-1), each `split_row_stride` fp16 apart
// (>= cols; the columns past cols are left unwritten); `unscale[r]` = 2^-e of row r, the exact
// factor that undoes the scale after the product.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace mish {

// Any cols; rows <= 2^31 - 1. Vectorized (16-byte loads, 8-byte stores) when cols and
// split_row_stride are multiples of 4 and `src` and `split` are 16- and 8-byte aligned.
void launch_row_split_fp16(const float* src, int64_t rows, int64_t cols, int top_exponent,
                           __half* split, int64_t split_row_stride, float* unscale,
                           cudaStream_t stream);

}  // namespace mish
