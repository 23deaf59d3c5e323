// Memory-bound: 8 bytes per element (read + write) and a handful of flops, so it is shaped for
// bandwidth: 16-byte loads and stores when the row length and the pointer allow it, a grid-stride
// loop over whole vectors, and the one-exp Mish (mish.cuh).
#include "cuda_check.cuh"
#include "epilogue.cuh"
#include "mish.cuh"

namespace mish {
namespace {

__device__ __forceinline__ float bias_mish_element(float v, const float* bias, int64_t col,
                                                   int mish_count) {
  if (bias != nullptr) v += bias[col];
  for (int i = 0; i < mish_count; ++i) v = mish(v);
  return v;
}

__global__ void bias_mish_vec4_kernel(float4* y, const float* bias, int64_t vectors,
                                      int64_t cols, int mish_count) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors; i += stride) {
    float4 v = y[i];
    const int64_t col = (i * 4) % cols;
    v.x = bias_mish_element(v.x, bias, col + 0, mish_count);
    v.y = bias_mish_element(v.y, bias, col + 1, mish_count);
    v.z = bias_mish_element(v.z, bias, col + 2, mish_count);
    v.w = bias_mish_element(v.w, bias, col + 3, mish_count);
    y[i] = v;
  }
}

__global__ void bias_mish_scalar_kernel(float* y, const float* bias, int64_t count, int64_t cols,
                                        int mish_count) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    y[i] = bias_mish_element(y[i], bias, i % cols, mish_count);
}

unsigned grid_for(int64_t items, int threads) {
  const int64_t blocks = (items + threads - 1) / threads;
  return static_cast<unsigned>(blocks < 65536 ? blocks : 65536);
}

}  // namespace

EpilogueLaunch bias_mish_launch(const float* y, int64_t rows, int64_t cols) {
  constexpr int kThreads = 256;
  const int64_t count = rows * cols;
  const bool vectorizable = cols % 4 == 0 && reinterpret_cast<uintptr_t>(y) % 16 == 0;
  EpilogueLaunch launch;
  launch.block = kThreads;
  launch.vector_width = vectorizable ? 4 : 1;
  launch.grid = grid_for(count / launch.vector_width, kThreads);
  return launch;
}

void launch_bias_mish(float* y, const float* bias, int64_t rows, int64_t cols, int mish_count,
                      cudaStream_t stream) {
  const EpilogueLaunch launch = bias_mish_launch(y, rows, cols);
  if (launch.vector_width == 4) {
    bias_mish_vec4_kernel<<<launch.grid, launch.block, 0, stream>>>(
        reinterpret_cast<float4*>(y), bias, rows * cols / 4, cols, mish_count);
  } else {
    bias_mish_scalar_kernel<<<launch.grid, launch.block, 0, stream>>>(y, bias, rows * cols, cols,
                                                                      mish_count);
  }
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace mish
