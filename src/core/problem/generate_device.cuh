// Fills device buffers with the same inputs the host generator produces (input_rng.cuh).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "core/problem/input_rng.cuh"

namespace mish {

void generate_on_device(Distribution dist, uint64_t seed, Tensor tensor, float* out, uint64_t count,
                        uint64_t row_length, float bound, cudaStream_t stream);

}  // namespace mish
