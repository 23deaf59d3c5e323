// The elementwise tail of the layer on a GEMM result y [rows, cols] (row-major), in place:
// y = mish^k(y + bias), bias per column (nullptr for none), k = mish_count in {0, 1, 2}.
// One kernel serves the fused tail (bias + 2 Mish) and each stage of the separate tail.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace mish {

void launch_bias_mish(float* y, const float* bias, int64_t rows, int64_t cols, int mish_count,
                      cudaStream_t stream);

}  // namespace mish
