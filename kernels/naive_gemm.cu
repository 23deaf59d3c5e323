// One 16x16 output tile per block, one output per thread; x and W tiles staged through shared
// memory (the W tile padded by one column so the transposed reads hit distinct banks).
#include "base/common/rounding.h"
#include "base/cuda/cuda_check.cuh"
#include "mish.cuh"
#include "naive_gemm.cuh"

namespace mish {
namespace {

__global__ void naive_linear_mish_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                         const float* __restrict__ bias, float* __restrict__ y,
                                         int64_t m, int64_t n, int64_t k) {
  __shared__ float x_tile[kNaiveTile][kNaiveTile];
  __shared__ float w_tile[kNaiveTile][kNaiveTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t row = int64_t(blockIdx.y) * kNaiveTile + ty;  // output row, row of x
  const int64_t col = int64_t(blockIdx.x) * kNaiveTile + tx;  // output column, row of W
  const int64_t w_row = int64_t(blockIdx.x) * kNaiveTile + ty;

  float acc = 0.0f;
  for (int64_t k0 = 0; k0 < k; k0 += kNaiveTile) {
    const int64_t kk = k0 + tx;
    x_tile[ty][tx] = (row < m && kk < k) ? x[row * k + kk] : 0.0f;
    w_tile[ty][tx] = (w_row < n && kk < k) ? w[w_row * k + kk] : 0.0f;
    __syncthreads();
    for (int i = 0; i < kNaiveTile; ++i) acc += x_tile[ty][i] * w_tile[tx][i];
    __syncthreads();
  }
  if (row < m && col < n) y[row * n + col] = mish(mish(acc + bias[col]));
}

}  // namespace

void launch_naive_linear_mish(const float* x, const float* w, const float* bias, float* y,
                              int64_t m, int64_t n, int64_t k, cudaStream_t stream) {
  const dim3 block(kNaiveTile, kNaiveTile);
  const dim3 grid(static_cast<unsigned>(ceil_div(n, kNaiveTile)),
                  static_cast<unsigned>(ceil_div(m, kNaiveTile)));
  naive_linear_mish_kernel<<<grid, block, 0, stream>>>(x, w, bias, y, m, n, k);
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace mish
