// Kernels that prepare fp32 operands for the split-precision tensor-core backends, using the
// element functions of split_precision.cuh so the host tests check the very code they run.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "base/common/rounding.h"  // round_up: segments start on 16-byte, output rows on 32-byte boundaries

namespace mish {

// Per element of src [rows, cols]: big = round_to_tf32(v), small = round_to_tf32(v - big), both
// exact TF32 values (so the product does not depend on how the GEMM converts fp32 to TF32),
// written into three segments of dst's row r (row stride dst_row_stride): segment s starts at
// column s * segment_stride and holds small when s == lo_segment, big otherwise. Columns between
// cols and segment_stride are left as they are.
void launch_split_tf32_rows(const float* src, int64_t rows, int64_t cols, float* dst,
                            int64_t dst_row_stride, int64_t segment_stride, int lo_segment,
                            cudaStream_t stream);

// dst[i] = bf16(src[i]), round to nearest even.
void launch_round_to_bf16(const float* src, __nv_bfloat16* dst, uint64_t count,
                          cudaStream_t stream);

// Per row r of src [rows, cols]: e_r = fp16_row_scale_exponent(max |src[r, :]|), then the scaled
// row's fp16 hi/lo halves are written into three segments of dst's row r (row stride
// dst_row_stride): segment s starts at column s * segment_stride and holds lo when s ==
// lo_segment, hi otherwise. Columns between cols and segment_stride are left as they are.
// row_exponent[r] = e_r.
void launch_split_fp16_rows(const float* src, int64_t rows, int64_t cols, __half* dst,
                            int64_t dst_row_stride, int64_t segment_stride, int lo_segment,
                            int* row_exponent, cudaStream_t stream);

constexpr int kSplitSegments = 3;

// The split backends' GEMMs write their fp32 products in rows of this many floats (n rounded up to
// 8; W's extra rows are zero, so the extra columns are too). cuBLAS leaves its fast kernels for
// other widths, measured on an H200: with n = 8190 the TF32 GEMM took 3xtf32 to 3.0 ms (1.05 with
// 8192), and with n = 4100 (16-byte rows, but not a multiple of 8) fp16x3's fp16 GEMM ran at a
// third of its speed (0.79 ms, 0.32 with 4104).
constexpr int64_t padded_output_columns(int64_t n) { return round_up(n, 8); }

}  // namespace mish
