// Each thread walks the buffer in a grid-wide stride with eight independent 16-byte loads in
// flight per step (enough outstanding requests per SM to cover HBM latency), and adds what it
// read.
#include "base/cuda/cuda_check.cuh"
#include "base/cuda/read_probe.cuh"

namespace mish {
namespace {

constexpr int kUnroll = 8;

// evict_first: __ldcs (streaming, the probe); otherwise __ldcg (cached in L2 only, the flush).
template <bool kEvictFirst>
__device__ __forceinline__ float4 load(const float4* p) {
  return kEvictFirst ? __ldcs(p) : __ldcg(p);
}

template <bool kEvictFirst>
__global__ void __launch_bounds__(1024) streaming_read_kernel(const float4* data, size_t count,
                                                               float* sink) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (; i + (kUnroll - 1) * stride < count; i += kUnroll * stride) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = load<kEvictFirst>(&data[i + u * stride]);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) sum += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  for (; i < count; i += stride) {
    const float4 v = load<kEvictFirst>(&data[i]);
    sum += v.x + v.y + v.z + v.w;
  }
  // Warp sums by shuffles, then one thread adds the warps' sums. (An atomicAdd of every thread
  // into one shared float serializes the whole block and added tens of microseconds per launch.)
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  __shared__ float warp_sums[1024 / 32];
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    float block_sum = 0.0f;
    for (int w = 0; w < int(blockDim.x / 32); ++w) block_sum += warp_sums[w];
    sink[blockIdx.x] = block_sum;
  }
}

template <bool kEvictFirst>
void launch_streaming_read(const float4* data, size_t count, float* sink, int sms,
                           const ReadProbeShape& shape, cudaStream_t stream) {
  const int blocks = shape.blocks_per_sm * (sms > 0 ? sms : 1);
  streaming_read_kernel<kEvictFirst><<<blocks, shape.threads, 0, stream>>>(data, count, sink);
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_read_probe(const float4* data, size_t count, float* sink, int sms,
                       const ReadProbeShape& shape, cudaStream_t stream) {
  launch_streaming_read<true>(data, count, sink, sms, shape, stream);
}

void launch_l2_evicting_read(const float4* data, size_t count, float* sink, int sms,
                             cudaStream_t stream) {
  // Any of the probe's shapes reads at about the same rate once the block sums are shuffles.
  launch_streaming_read<false>(data, count, sink, sms, kReadProbeShapes[1], stream);
}

}  // namespace mish
