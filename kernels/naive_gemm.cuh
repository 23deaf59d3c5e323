// The textbook baseline: a shared-memory tiled fp32 GEMM on CUDA cores with bias + Mish + Mish
// applied as each output is stored. No cuBLAS, no tensor cores.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace mish {

constexpr int kNaiveTile = 16;

void launch_naive_linear_mish(const float* x, const float* w, const float* bias, float* y,
                              int64_t m, int64_t n, int64_t k, cudaStream_t stream);

}  // namespace mish
