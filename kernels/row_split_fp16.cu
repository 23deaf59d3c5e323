// One block per row: a max-|v| reduction over the row, then a second pass that scales, splits and
// writes hi and lo. Memory-bound: the row is read once (it waits in registers between the passes,
// up to k = 8192 in the vectorized form) and written once as hi + lo. Rows whose length is a
// multiple of 4 go four elements at a time (16-byte loads, 8-byte stores); others one at a time.
#include "base/common/rounding.h"
#include "base/cuda/cuda_check.cuh"
#include "grid_stride.cuh"
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

// Writes the scaled hi/lo split of one group (kWidth consecutive elements from (row, col)).
template <int kWidth, typename Layout>
__device__ __forceinline__ void write_split(const Group<kWidth>& g, float scale, const Layout& out,
                                            int64_t row, int64_t col) {
  __half* hi = out.split + out.offset(row, col, 0);
  __half* lo = out.split + out.offset(row, col, 1);
  HalfSplit s[kWidth];
#pragma unroll
  for (int i = 0; i < kWidth; ++i) s[i] = split_fp16(g.v[i] * scale);
  if constexpr (kWidth == 4) {
    *reinterpret_cast<Half4*>(hi) = {__halves2half2(s[0].hi, s[1].hi),
                                     __halves2half2(s[2].hi, s[3].hi)};
    *reinterpret_cast<Half4*>(lo) = {__halves2half2(s[0].lo, s[1].lo),
                                     __halves2half2(s[2].lo, s[3].lo)};
  } else {
    *hi = s[0].hi;
    *lo = s[0].lo;
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

template <int kWidth, typename Layout>
__global__ void __launch_bounds__(kBlockThreads)
    row_split_fp16_kernel(const float* src, int64_t cols, int top_exponent, const Layout out,
                          float* unscale) {
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

#pragma unroll
  for (int j = 0; j < kCachedGroups; ++j) {
    const int64_t g = threadIdx.x + int64_t(j) * kBlockThreads;
    if (g < groups) write_split(cached[j], scale, out, row, g * kWidth);
  }
  for (int64_t g = threadIdx.x + int64_t(kCachedGroups) * kBlockThreads; g < groups; g += kBlockThreads)
    write_split(load_group<kWidth>(in + g * kWidth), scale, out, row, g * kWidth);
}

template <typename Layout>
void launch_split(const float* src, int64_t rows, int64_t cols, int top_exponent,
                  const Layout& out, float* unscale, cudaStream_t stream) {
  const bool vectorized = cols % 4 == 0 && out.keeps_groups_of_four() && is_aligned(src, 16) &&
                          is_aligned(out.split, 8);
  const unsigned blocks = static_cast<unsigned>(rows);
  if (vectorized) {
    row_split_fp16_kernel<4, Layout>
        <<<blocks, kBlockThreads, 0, stream>>>(src, cols, top_exponent, out, unscale);
  } else {
    row_split_fp16_kernel<1, Layout>
        <<<blocks, kBlockThreads, 0, stream>>>(src, cols, top_exponent, out, unscale);
  }
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_row_split_fp16(const float* src, int64_t rows, int64_t cols, int top_exponent,
                           const SplitRows& out, float* unscale, cudaStream_t stream) {
  launch_split(src, rows, cols, top_exponent, out, unscale, stream);
}

void launch_row_split_fp16(const float* src, int64_t rows, int64_t cols, int top_exponent,
                           const SplitTileBlocks& out, float* unscale, cudaStream_t stream) {
  launch_split(src, rows, cols, top_exponent, out, unscale, stream);
}

}  // namespace mish
