// The elementwise tail of the layer on a GEMM result y [rows, cols] (row-major), in place:
// y = mish^k(y + bias), bias per column (nullptr for none), k = mish_count in {0, 1, 2}.
// One kernel serves the fused tail (bias + 2 Mish) and each stage of the separate tail.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace mish {

// The grid and block launch_bias_mish uses for this y: vector_width 4 when rows are 16-byte
// aligned (float4 loads and stores), else 1. Backends report it.
struct EpilogueLaunch {
  unsigned grid = 0;
  unsigned block = 0;
  int vector_width = 1;
};
EpilogueLaunch bias_mish_launch(const float* y, int64_t rows, int64_t cols);

void launch_bias_mish(float* y, const float* bias, int64_t rows, int64_t cols, int mish_count,
                      cudaStream_t stream);

}  // namespace mish
