// Crash: the kernel writes to an unmapped device address, a sticky CUDA error (illegal memory
// access) that poisons the context of the process it runs in.
#include <cstdint>

#include "device_layer.h"

namespace {

__global__ void write_wild(float* address) { *address = 1.0f; }

int run(void*, const mishbench_tensors*, void* stream, char* message, size_t size) {
  write_wild<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<float*>(uintptr_t{64}));
  return test_plugin::cuda_status(cudaGetLastError(), "launch", message, size);
}

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("illegal-address", MISHBENCH_DEVICE, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
