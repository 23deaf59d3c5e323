// Operand preparation for the split-precision backends (tf32 x3, bf16, fp16 x3).
//
// All three are memory-bound elementwise passes. The TF32 and bf16 ones are flat grid-stride
// loops (TF32 writing the three segments of a concatenated-K operand). The fp16 one needs each
// row's largest magnitude before it can scale the row, so it runs one block per row: a block-wide
// max reduction, then a second sweep over the row (now in L1/L2) that scales by 2^e (exact),
// splits into hi/lo and writes the three segments of the concatenated-K operand in one go.
#include "base/cuda/cuda_check.cuh"
#include "grid_stride.cuh"
#include "split.cuh"
#include "split_precision.cuh"

namespace mish {
namespace {


__global__ void split_tf32_rows_kernel(const float* src, int64_t cols, uint64_t count, float* dst,
                                       int64_t dst_row_stride, int64_t segment_stride,
                                       int lo_segment) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const int64_t row = int64_t(i / cols), col = int64_t(i % cols);
    const Tf32Split s = split_tf32(src[i]);
    const float small = round_to_tf32(s.lo);
    float* out = dst + row * dst_row_stride + col;
    for (int segment = 0; segment < kSplitSegments; ++segment)
      out[segment * segment_stride] = segment == lo_segment ? small : s.hi;
  }
}

__global__ void round_to_bf16_kernel(const float* src, __nv_bfloat16* dst, uint64_t count) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    dst[i] = __float2bfloat16_rn(src[i]);
}

__global__ void split_fp16_rows_kernel(const float* src, int64_t cols, __half* dst,
                                       int64_t dst_row_stride, int64_t segment_stride,
                                       int lo_segment, int* row_exponent) {
  __shared__ float warp_max[kBlockThreads / 32];
  __shared__ int shared_exponent;
  const int64_t row = blockIdx.x;
  const float* in = src + row * cols;
  float local = 0.0f;
  for (int64_t c = threadIdx.x; c < cols; c += kBlockThreads) local = fmaxf(local, fabsf(in[c]));
  for (int offset = 16; offset > 0; offset /= 2)
    local = fmaxf(local, __shfl_xor_sync(0xffffffffu, local, offset));
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = local;
  __syncthreads();
  if (threadIdx.x == 0) {
    float row_max = 0.0f;
    for (int w = 0; w < kBlockThreads / 32; ++w) row_max = fmaxf(row_max, warp_max[w]);
    shared_exponent = fp16_row_scale_exponent(row_max);
    row_exponent[row] = shared_exponent;
  }
  __syncthreads();
  const int exponent = shared_exponent;
  __half* out = dst + row * dst_row_stride;
  for (int64_t c = threadIdx.x; c < cols; c += kBlockThreads) {
    const HalfSplit s = split_fp16(ldexpf(in[c], exponent));
    for (int segment = 0; segment < kSplitSegments; ++segment)
      out[segment * segment_stride + c] = segment == lo_segment ? s.lo : s.hi;
  }
}

}  // namespace

void launch_split_tf32_rows(const float* src, int64_t rows, int64_t cols, float* dst,
                            int64_t dst_row_stride, int64_t segment_stride, int lo_segment,
                            cudaStream_t stream) {
  const uint64_t count = uint64_t(rows) * uint64_t(cols);
  split_tf32_rows_kernel<<<grid_stride_blocks(count, kBlockThreads), kBlockThreads, 0, stream>>>(
      src, cols, count, dst, dst_row_stride, segment_stride, lo_segment);
  MISH_CUDA_CHECK_LAUNCH();
}

void launch_round_to_bf16(const float* src, __nv_bfloat16* dst, uint64_t count,
                          cudaStream_t stream) {
  round_to_bf16_kernel<<<grid_stride_blocks(count, kBlockThreads), kBlockThreads, 0, stream>>>(src, dst,
                                                                                     count);
  MISH_CUDA_CHECK_LAUNCH();
}

void launch_split_fp16_rows(const float* src, int64_t rows, int64_t cols, __half* dst,
                            int64_t dst_row_stride, int64_t segment_stride, int lo_segment,
                            int* row_exponent, cudaStream_t stream) {
  split_fp16_rows_kernel<<<static_cast<unsigned>(rows), kBlockThreads, 0, stream>>>(
      src, cols, dst, dst_row_stride, segment_stride, lo_segment, row_exponent);
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace mish
