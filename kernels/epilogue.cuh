// The elementwise tail of the layer on a GEMM result y [rows, cols] (row-major):
// y = mish^k(v + bias), bias per column (nullptr for none), k = mish_count in {0, 1, 2}, where v is
//   - y itself (in place) for the plain GEMM backends, or
//   - the fp32 sum of `partial_count` partial products [rows, cols] lying `partial_stride` floats
//     apart (split-K chunks accumulated apart by the tensor cores), optionally multiplied by
//     2^-(row_exponent[r] + col_exponent[c]) to undo a per-row scaling of both GEMM operands.
//     Their rows may be padded (`row_stride` floats apart, >= cols) to keep a GEMM's output on
//     cuBLAS's fast kernels (padded_output_columns in split.cuh).
// One kernel serves the fused tail (bias + 2 Mish), each stage of the separate tail and the
// reducing, unscaling tail of the split-precision backends.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace mish {

// The layer applies Mish twice: the mish_count of every full epilogue.
constexpr int kLayerMishCount = 2;

struct EpilogueSource {
  const float* partials = nullptr;  // nullptr: read y in place
  int partial_count = 1;
  int64_t partial_stride = 0;         // floats between consecutive partials
  int64_t row_stride = 0;             // floats between rows of a partial; 0: cols
  const int* row_exponent = nullptr;  // both null or both set: scale by 2^-(row + col exponent)
  const int* col_exponent = nullptr;
};

void launch_epilogue(float* y, const EpilogueSource& source, const float* bias, int64_t rows,
                     int64_t cols, int mish_count, cudaStream_t stream);

// The grid and block launch_epilogue uses: vector_width 4 (float4 loads and stores) when rows are
// whole float4s, the partials' rows unpadded and the pointers (y, partials, bias) 16-byte aligned,
// else 1. Backends report it.
struct EpilogueLaunch {
  unsigned grid = 0;
  unsigned block = 0;
  int vector_width = 1;
};
EpilogueLaunch epilogue_launch(const float* y, const EpilogueSource& source, const float* bias,
                               int64_t rows, int64_t cols);

// In place on y: the common case.
void launch_bias_mish(float* y, const float* bias, int64_t rows, int64_t cols, int mish_count,
                      cudaStream_t stream);

}  // namespace mish
