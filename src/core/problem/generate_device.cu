#include "base/cuda/cuda_check.cuh"
#include "core/problem/generate_device.cuh"
#include "grid_stride.cuh"

namespace mish {
namespace {

__global__ void generate_kernel(Distribution dist, uint64_t seed, Tensor tensor, float* out,
                                uint64_t count, uint64_t row_length, float bound) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    out[i] = input_value(dist, seed, tensor, i, row_length, bound);
}

}  // namespace

void generate_on_device(Distribution dist, uint64_t seed, Tensor tensor, float* out, uint64_t count,
                        uint64_t row_length, float bound, cudaStream_t stream) {
  generate_kernel<<<grid_stride_blocks(count, kBlockThreads), kBlockThreads, 0, stream>>>(
      dist, seed, tensor, out, count, row_length, bound);
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace mish
