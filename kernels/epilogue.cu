// Memory-bound: 8 bytes per element (read + write) plus 4 per extra partial, and a handful of
// flops, so it is shaped for bandwidth: 16-byte loads and stores when the row length and the
// pointers allow it, a grid-stride loop over whole vectors, and the one-exp Mish (mish.cuh).
// The partial sum and the power-of-two unscaling are done in fp32 before the bias, in the order
// the partials are given; ldexpf keeps the unscaling exact even when the two exponents together
// leave fp32's exponent range.
#include <stdexcept>

#include "base/common/rounding.h"
#include "base/cuda/cuda_check.cuh"
#include "epilogue.cuh"
#include "grid_stride.cuh"
#include "mish.cuh"

namespace mish {
namespace {

struct Params {
  const float* source;  // first partial, or y itself
  int partial_count;
  int64_t partial_stride;
  int64_t source_row_stride;  // floats between rows of the source (the float4 path: == cols)
  const int* row_exponent;
  const int* col_exponent;
  const float* bias;
  int64_t cols;
};

// The Mish count is a template argument so that the per-element work is straight-line code the
// compiler can interleave across the elements of a vector.
template <int kMishCount>
__device__ __forceinline__ float finish_element(float v, const Params& p, int row_scale,
                                                int64_t col, float bias) {
  if (p.row_exponent != nullptr) v = ldexpf(v, -(row_scale + p.col_exponent[col]));
  if (p.bias != nullptr) v += bias;
#pragma unroll
  for (int i = 0; i < kMishCount; ++i) v = mish(v);
  return v;
}

template <int kMishCount>
__global__ void epilogue_vec4_kernel(float4* y, Params p, int64_t vectors) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  const float4* source = reinterpret_cast<const float4*>(p.source);
  const int64_t vector_stride = p.partial_stride / 4;
  const int64_t vectors_per_row = p.cols / 4;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors; i += stride) {
    float4 v = source[i];
    for (int part = 1; part < p.partial_count; ++part) {
      const float4 more = source[i + part * vector_stride];
      v.x += more.x, v.y += more.y, v.z += more.z, v.w += more.w;
    }
    // cols % 4 == 0, so the four elements share a row, and the bias is 16-byte aligned.
    const int64_t col = (i % vectors_per_row) * 4;
    const int row_scale = p.row_exponent != nullptr ? p.row_exponent[i / vectors_per_row] : 0;
    const float4 bias = p.bias != nullptr ? *reinterpret_cast<const float4*>(p.bias + col)
                                          : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    v.x = finish_element<kMishCount>(v.x, p, row_scale, col + 0, bias.x);
    v.y = finish_element<kMishCount>(v.y, p, row_scale, col + 1, bias.y);
    v.z = finish_element<kMishCount>(v.z, p, row_scale, col + 2, bias.z);
    v.w = finish_element<kMishCount>(v.w, p, row_scale, col + 3, bias.w);
    y[i] = v;
  }
}

template <int kMishCount>
__global__ void epilogue_scalar_kernel(float* y, Params p, int64_t count) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const int64_t row = i / p.cols, col = i % p.cols;
    const float* source = p.source + row * p.source_row_stride + col;
    float v = source[0];
    for (int part = 1; part < p.partial_count; ++part) v += source[part * p.partial_stride];
    const int row_scale = p.row_exponent != nullptr ? p.row_exponent[row] : 0;
    const float bias = p.bias != nullptr ? p.bias[col] : 0.0f;
    y[i] = finish_element<kMishCount>(v, p, row_scale, col, bias);
  }
}

template <int kMishCount>
void launch_for_count(float* y, const Params& p, const EpilogueLaunch& launch, int64_t count,
                      cudaStream_t stream) {
  if (launch.vector_width == 4) {
    epilogue_vec4_kernel<kMishCount><<<launch.grid, launch.block, 0, stream>>>(
        reinterpret_cast<float4*>(y), p, count / 4);
  } else {
    epilogue_scalar_kernel<kMishCount><<<launch.grid, launch.block, 0, stream>>>(y, p, count);
  }
}

// Floats between the rows the epilogue reads: y's own (cols), or the partials' row_stride if set.
int64_t source_row_stride(const EpilogueSource& source, int64_t cols) {
  return source.partials != nullptr && source.row_stride != 0 ? source.row_stride : cols;
}

}  // namespace

// Vectorized when rows are whole float4s, the source's rows unpadded, and every pointer read or
// written 16-byte aligned.
EpilogueLaunch epilogue_launch(const float* y, const EpilogueSource& source, const float* bias,
                               int64_t rows, int64_t cols) {
  const float* input = source.partials != nullptr ? source.partials : y;
  const bool vectorizable = cols % 4 == 0 && is_aligned(y, 16) && is_aligned(input, 16) &&
                            is_aligned(bias, 16) &&
                            (source.partials == nullptr || source.partial_stride % 4 == 0) &&
                            source_row_stride(source, cols) == cols;
  EpilogueLaunch launch;
  launch.block = kBlockThreads;
  launch.vector_width = vectorizable ? 4 : 1;
  launch.grid = grid_stride_blocks(uint64_t(rows * cols / launch.vector_width), kBlockThreads);
  return launch;
}

void launch_epilogue(float* y, const EpilogueSource& source, const float* bias, int64_t rows,
                     int64_t cols, int mish_count, cudaStream_t stream) {
  const Params p{source.partials != nullptr ? source.partials : y,
                 source.partials != nullptr ? source.partial_count : 1,
                 source.partial_stride,
                 source_row_stride(source, cols),
                 source.row_exponent,
                 source.col_exponent,
                 bias,
                 cols};
  const EpilogueLaunch launch = epilogue_launch(y, source, bias, rows, cols);
  const int64_t count = rows * cols;
  switch (mish_count) {
    case 0: launch_for_count<0>(y, p, launch, count, stream); break;
    case 1: launch_for_count<1>(y, p, launch, count, stream); break;
    case 2: launch_for_count<2>(y, p, launch, count, stream); break;
    default: throw std::invalid_argument("launch_epilogue: mish_count must be 0, 1 or 2");
  }
  MISH_CUDA_CHECK_LAUNCH();
}

void launch_bias_mish(float* y, const float* bias, int64_t rows, int64_t cols, int mish_count,
                      cudaStream_t stream) {
  launch_epilogue(y, EpilogueSource{}, bias, rows, cols, mish_count, stream);
}

}  // namespace mish
