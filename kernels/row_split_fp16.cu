// One block per row: a max-|v| reduction over the row, then a second pass that scales, splits and
// writes hi and lo (in fragment order, also the zeros up to the row stride). Memory-bound: the row
// is read once (it waits in registers between the passes, up to k = 8192 in the vectorized form)
// and written once as hi + lo. Rows whose length is a multiple of 4 go four elements at a time
// (16-byte loads, 8-byte or two 4-byte stores); others one at a time.
#include <stdexcept>

#include "cuda/cuda_check.cuh"
#include "grid_stride.cuh"
#include "common/rounding.h"
#include "row_split_fp16.cuh"
#include "split_precision.cuh"

namespace mish {
namespace {

constexpr int kCachedGroups = 8;  // groups of kWidth elements per thread held in registers

struct alignas(8) Half4 {
  __half2 first, second;
};

template <int kWidth>
struct Group {
  float v[kWidth];
};

template <int kWidth>
__device__ __forceinline__ Group<kWidth> load_group(const float* p) {
  if constexpr (kWidth == 4) {
    const float4 f = *reinterpret_cast<const float4*>(p);
    return {{f.x, f.y, f.z, f.w}};
  } else {
    return {{*p}};
  }
}

template <int kWidth>
__device__ __forceinline__ float max_abs(const Group<kWidth>& g) {
  float m = 0.0f;
#pragma unroll
  for (int i = 0; i < kWidth; ++i) m = fmaxf(m, fabsf(g.v[i]));
  return m;
}

// Writes the scaled hi/lo split of the group at column `col` (kWidth consecutive elements) into
// the row's hi and lo. In order, a group of four is one 8-byte store a half; in fragment order,
// two 4-byte ones (each even-odd pair of columns stays adjacent, see split_column).
template <int kWidth, SplitColumns kOrder>
__device__ __forceinline__ void write_split(const Group<kWidth>& g, float scale, int64_t col,
                                            __half* hi, __half* lo) {
  HalfSplit s[kWidth];
#pragma unroll
  for (int i = 0; i < kWidth; ++i) s[i] = split_fp16(g.v[i] * scale);
  if constexpr (kWidth == 4 && kOrder == SplitColumns::in_order) {
    *reinterpret_cast<Half4*>(hi + col) = {__halves2half2(s[0].hi, s[1].hi),
                                           __halves2half2(s[2].hi, s[3].hi)};
    *reinterpret_cast<Half4*>(lo + col) = {__halves2half2(s[0].lo, s[1].lo),
                                           __halves2half2(s[2].lo, s[3].lo)};
  } else if constexpr (kWidth == 4) {
#pragma unroll
    for (int pair = 0; pair < 2; ++pair) {
      const int64_t at = split_column(col + 2 * pair, kOrder);
      *reinterpret_cast<__half2*>(hi + at) = __halves2half2(s[2 * pair].hi, s[2 * pair + 1].hi);
      *reinterpret_cast<__half2*>(lo + at) = __halves2half2(s[2 * pair].lo, s[2 * pair + 1].lo);
    }
  } else {
    const int64_t at = split_column(col, kOrder);
    hi[at] = s[0].hi;
    lo[at] = s[0].lo;
  }
}

__device__ float block_max(float v) {
  __shared__ float warp_max[kBlockThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = v;
  __syncthreads();
  v = warp_max[0];
  for (int w = 1; w < kBlockThreads / 32; ++w) v = fmaxf(v, warp_max[w]);
  return v;
}

template <int kWidth, SplitColumns kOrder>
__global__ void __launch_bounds__(kBlockThreads)
    row_split_fp16_kernel(const float* src, int64_t rows, int64_t cols, int top_exponent,
                          __half* split, int64_t split_row_stride, float* unscale) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // A kernel launched after this one as its programmatic dependent (wgmma's layer kernel) may
  // start setting up now; it still waits for this kernel's writes before reading them.
  cudaTriggerProgrammaticLaunchCompletion();
#endif
  const int64_t row = blockIdx.x;
  const float* in = src + row * cols;
  const int64_t groups = cols / kWidth;
  // The first kCachedGroups * kBlockThreads groups of the row stay in registers between the max pass
  // and the split pass; longer rows read their tail twice.
  Group<kWidth> cached[kCachedGroups];
  float row_max = 0.0f;
#pragma unroll
  for (int j = 0; j < kCachedGroups; ++j) {
    const int64_t g = threadIdx.x + int64_t(j) * kBlockThreads;
    cached[j] = g < groups ? load_group<kWidth>(in + g * kWidth) : Group<kWidth>{};
    row_max = fmaxf(row_max, max_abs(cached[j]));
  }
  for (int64_t g = threadIdx.x + int64_t(kCachedGroups) * kBlockThreads; g < groups; g += kBlockThreads)
    row_max = fmaxf(row_max, max_abs(load_group<kWidth>(in + g * kWidth)));
  const int e = fp16_row_scale_exponent(block_max(row_max), top_exponent);
  const float scale = ldexpf(1.0f, e);  // |e| <= 120: exact, normal
  if (threadIdx.x == 0) unscale[row] = ldexpf(1.0f, -e);

  __half* hi = split + row * split_row_stride;
  __half* lo = split + (rows + row) * split_row_stride;
#pragma unroll
  for (int j = 0; j < kCachedGroups; ++j) {
    const int64_t g = threadIdx.x + int64_t(j) * kBlockThreads;
    if (g < groups) write_split<kWidth, kOrder>(cached[j], scale, g * kWidth, hi, lo);
  }
  for (int64_t g = threadIdx.x + int64_t(kCachedGroups) * kBlockThreads; g < groups; g += kBlockThreads)
    write_split<kWidth, kOrder>(load_group<kWidth>(in + g * kWidth), scale, g * kWidth, hi, lo);
  if constexpr (kOrder == SplitColumns::wgmma_a_fragments) {
    for (int64_t c = cols + threadIdx.x; c < split_row_stride; c += kBlockThreads) {
      hi[split_column(c, kOrder)] = __float2half(0.0f);
      lo[split_column(c, kOrder)] = __float2half(0.0f);
    }
  }
}

template <int kWidth>
void launch_split_kernel(SplitColumns order, unsigned blocks, cudaStream_t stream, const float* src,
               int64_t rows, int64_t cols, int top_exponent, __half* split,
               int64_t split_row_stride, float* unscale) {
  const auto kernel = order == SplitColumns::in_order
                          ? row_split_fp16_kernel<kWidth, SplitColumns::in_order>
                          : row_split_fp16_kernel<kWidth, SplitColumns::wgmma_a_fragments>;
  kernel<<<blocks, kBlockThreads, 0, stream>>>(src, rows, cols, top_exponent, split,
                                               split_row_stride, unscale);
}

}  // namespace

void launch_row_split_fp16(const float* src, int64_t rows, int64_t cols, int top_exponent,
                           __half* split, int64_t split_row_stride, float* unscale,
                           cudaStream_t stream, SplitColumns order) {
  if (order == SplitColumns::wgmma_a_fragments && split_row_stride % 32 != 0)
    throw std::invalid_argument(
        "row split in fragment order: the row stride must be a multiple of 32");
  const bool vectorized =
      cols % 4 == 0 && split_row_stride % 4 == 0 && is_aligned(src, 16) && is_aligned(split, 8);
  const unsigned blocks = static_cast<unsigned>(rows);
  if (vectorized)
    launch_split_kernel<4>(order, blocks, stream, src, rows, cols, top_exponent, split, split_row_stride,
                 unscale);
  else
    launch_split_kernel<1>(order, blocks, stream, src, rows, cols, top_exponent, split, split_row_stride,
                 unscale);
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace mish
