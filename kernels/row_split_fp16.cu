// One block per row: a max-|v| reduction over the row, then a second pass that scales, splits and
// writes hi and lo. Memory-bound: the row is read once (it waits in registers between the passes,
// up to k = 8192) and written once as hi + lo, with 16-byte loads and 8-byte stores.
#include "cuda_check.cuh"
#include "row_split_fp16.cuh"
#include "split_precision.cuh"

namespace mish {
namespace {

constexpr int kThreads = 256;
constexpr int kCachedVectors = 8;  // float4 per thread held in registers

struct alignas(8) Half4 {
  __half2 first, second;
};

__device__ __forceinline__ float max_abs4(float4 v) {
  return fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w)));
}

__device__ float block_max(float v) {
  __shared__ float warp_max[kThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = v;
  __syncthreads();
  v = warp_max[0];
  for (int w = 1; w < kThreads / 32; ++w) v = fmaxf(v, warp_max[w]);
  return v;
}

// Writes the scaled hi/lo split of one float4 (four consecutive elements).
__device__ __forceinline__ void write_split(const float4 v, float scale, Half4* hi, Half4* lo) {
  const HalfSplit a = split_fp16(v.x * scale), b = split_fp16(v.y * scale);
  const HalfSplit c = split_fp16(v.z * scale), d = split_fp16(v.w * scale);
  *hi = {__halves2half2(a.hi, b.hi), __halves2half2(c.hi, d.hi)};
  *lo = {__halves2half2(a.lo, b.lo), __halves2half2(c.lo, d.lo)};
}

__global__ void __launch_bounds__(kThreads) row_split_fp16_kernel(const float4* src, int64_t rows,
                                                                  int64_t vectors_per_row,
                                                                  Half4* split, float* unscale) {
  const int64_t row = blockIdx.x;
  const float4* in = src + row * vectors_per_row;
  // The first kCachedVectors * kThreads vectors of the row (all of it up to k = 8192) stay in
  // registers between the max pass and the split pass; longer rows read their tail twice.
  float4 cached[kCachedVectors];
  float max_abs = 0.0f;
#pragma unroll
  for (int j = 0; j < kCachedVectors; ++j) {
    const int64_t i = threadIdx.x + int64_t(j) * kThreads;
    cached[j] = i < vectors_per_row ? in[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    max_abs = fmaxf(max_abs, max_abs4(cached[j]));
  }
  for (int64_t i = threadIdx.x + int64_t(kCachedVectors) * kThreads; i < vectors_per_row;
       i += kThreads)
    max_abs = fmaxf(max_abs, max_abs4(in[i]));
  const int e = fp16_row_scale_exponent(block_max(max_abs));
  const float scale = ldexpf(1.0f, e);  // |e| <= 120: exact, normal
  if (threadIdx.x == 0) unscale[row] = ldexpf(1.0f, -e);

  // Each float4 becomes four fp16 of hi and four of lo, one 8-byte store each.
  Half4* hi = split + row * vectors_per_row;
  Half4* lo = split + (rows + row) * vectors_per_row;
#pragma unroll
  for (int j = 0; j < kCachedVectors; ++j) {
    const int64_t i = threadIdx.x + int64_t(j) * kThreads;
    if (i < vectors_per_row) write_split(cached[j], scale, hi + i, lo + i);
  }
  for (int64_t i = threadIdx.x + int64_t(kCachedVectors) * kThreads; i < vectors_per_row;
       i += kThreads)
    write_split(in[i], scale, hi + i, lo + i);
}

}  // namespace

void launch_row_split_fp16(const float* src, int64_t rows, int64_t cols, __half* split,
                           float* unscale, cudaStream_t stream) {
  row_split_fp16_kernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(
      reinterpret_cast<const float4*>(src), rows, cols / 4, reinterpret_cast<Half4*>(split),
      unscale);
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace mish
