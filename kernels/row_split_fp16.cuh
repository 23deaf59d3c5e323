// Prepares an fp32 matrix [rows, cols] (row-major) for fp16x3 tensor-core products: each row is
// scaled by its own power of two 2^e (largest magnitude into [2^13, 2^14), split_precision.cuh),
// then split into hi = fp16(v * 2^e) and lo = fp16(v * 2^e - hi).
// Output layout, chosen so one TMA descriptor covers both halves: `split` is [2 * rows, cols] fp16
// with the hi rows first (rows 0 .. rows-1) and the lo rows after them (rows .. 2*rows-1);
// `unscale[r]` = 2^-e of row r, the exact factor that undoes the scale after the product.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace mish {

// Needs cols % 4 == 0 and 16-byte aligned `src` (vectorized loads); rows <= 2^31 - 1.
void launch_row_split_fp16(const float* src, int64_t rows, int64_t cols, __half* split,
                           float* unscale, cudaStream_t stream);

}  // namespace mish
