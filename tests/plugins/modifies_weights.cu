// Cheat: computes y honestly, then flips the sign of W[0][0] on the device. Checksumming the
// inputs after the run must catch it.
#include "device_layer.h"

namespace {

__global__ void negate_first(float* w) { w[0] = -w[0]; }

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  if (test_plugin::run_honest_device(instance, t, stream, message, size) != MISHBENCH_OK)
    return MISHBENCH_ERROR;
  negate_first<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(const_cast<float*>(t->w));
  return test_plugin::cuda_status(cudaGetLastError(), "launch", message, size);
}

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("modifies-weights", MISHBENCH_DEVICE, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
