// Memory-bound: 8 bytes per element (read + write) plus 4 per extra partial, and a handful of
// flops, so it is shaped for bandwidth: 16-byte loads and stores when the row length and the
// pointers allow it, a grid-stride loop over whole vectors, and the one-exp Mish (mish.cuh).
// The partial sum and the power-of-two unscaling are done in fp32 before the bias, in the order
// the partials are given; ldexpf keeps the unscaling exact even when the two exponents together
// leave fp32's exponent range.
#include "cuda_check.cuh"
#include "epilogue.cuh"
#include "grid_stride.cuh"
#include "mish.cuh"

namespace mish {
namespace {

struct Params {
  const float* source;  // first partial, or y itself
  int partial_count;
  int64_t partial_stride;
  const int* row_exponent;
  const int* col_exponent;
  const float* bias;
  int64_t cols;
  int mish_count;
};

__device__ __forceinline__ float finish_element(float v, const Params& p, int row_scale,
                                                int64_t col) {
  if (p.row_exponent != nullptr) v = ldexpf(v, -(row_scale + p.col_exponent[col]));
  if (p.bias != nullptr) v += p.bias[col];
  for (int i = 0; i < p.mish_count; ++i) v = mish(v);
  return v;
}

__global__ void epilogue_vec4_kernel(float4* y, Params p, int64_t vectors) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  const float4* source = reinterpret_cast<const float4*>(p.source);
  const int64_t vector_stride = p.partial_stride / 4;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors; i += stride) {
    float4 v = source[i];
    for (int part = 1; part < p.partial_count; ++part) {
      const float4 more = source[i + part * vector_stride];
      v.x += more.x, v.y += more.y, v.z += more.z, v.w += more.w;
    }
    // cols % 4 == 0, so the four elements share a row.
    const int64_t col = (i * 4) % p.cols;
    const int row_scale = p.row_exponent != nullptr ? p.row_exponent[(i * 4) / p.cols] : 0;
    v.x = finish_element(v.x, p, row_scale, col + 0);
    v.y = finish_element(v.y, p, row_scale, col + 1);
    v.z = finish_element(v.z, p, row_scale, col + 2);
    v.w = finish_element(v.w, p, row_scale, col + 3);
    y[i] = v;
  }
}

__global__ void epilogue_scalar_kernel(float* y, Params p, int64_t count) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    float v = p.source[i];
    for (int part = 1; part < p.partial_count; ++part) v += p.source[i + part * p.partial_stride];
    const int row_scale = p.row_exponent != nullptr ? p.row_exponent[i / p.cols] : 0;
    y[i] = finish_element(v, p, row_scale, i % p.cols);
  }
}

bool aligned16(const void* pointer) { return reinterpret_cast<uintptr_t>(pointer) % 16 == 0; }

}  // namespace

// Vectorized when rows are whole float4s and every pointer read or written is 16-byte aligned.
EpilogueLaunch epilogue_launch(const float* y, const EpilogueSource& source, int64_t rows,
                               int64_t cols) {
  constexpr int kThreads = 256;
  const float* input = source.partials != nullptr ? source.partials : y;
  const bool vectorizable = cols % 4 == 0 && aligned16(y) && aligned16(input) &&
                            (source.partials == nullptr || source.partial_stride % 4 == 0);
  EpilogueLaunch launch;
  launch.block = kThreads;
  launch.vector_width = vectorizable ? 4 : 1;
  launch.grid = grid_stride_blocks(uint64_t(rows * cols / launch.vector_width), kThreads);
  return launch;
}

void launch_epilogue(float* y, const EpilogueSource& source, const float* bias, int64_t rows,
                     int64_t cols, int mish_count, cudaStream_t stream) {
  const int64_t count = rows * cols;
  const Params p{source.partials != nullptr ? source.partials : y,
                 source.partials != nullptr ? source.partial_count : 1,
                 source.partial_stride,
                 source.row_exponent,
                 source.col_exponent,
                 bias,
                 cols,
                 mish_count};
  const EpilogueLaunch launch = epilogue_launch(y, source, rows, cols);
  if (launch.vector_width == 4) {
    epilogue_vec4_kernel<<<launch.grid, launch.block, 0, stream>>>(reinterpret_cast<float4*>(y), p,
                                                                   count / 4);
  } else {
    epilogue_scalar_kernel<<<launch.grid, launch.block, 0, stream>>>(y, p, count);
  }
  MISH_CUDA_CHECK_LAUNCH();
}

void launch_bias_mish(float* y, const float* bias, int64_t rows, int64_t cols, int mish_count,
                      cudaStream_t stream) {
  launch_epilogue(y, EpilogueSource{}, bias, rows, cols, mish_count, stream);
}

}  // namespace mish
