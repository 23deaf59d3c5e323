// Honest but unusual: in every run() a scratch output from the stream-ordered allocator
// (cudaMallocAsync on the given stream), the layer computed into it, copied into y and freed
// (cudaFreeAsync), all on the given stream.
// Verdict: ok.
#include "device_layer.h"

namespace {

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  const mishbench_shape& shape = test_plugin::shape_of(instance);
  const auto s = static_cast<cudaStream_t>(stream);
  const size_t bytes = size_t(shape.m * shape.n) * sizeof(float);
  void* scratch = nullptr;
  if (test_plugin::cuda_status(cudaMallocAsync(&scratch, bytes, s), "cudaMallocAsync", message,
                               size) != MISHBENCH_OK)
    return MISHBENCH_ERROR;
  mishbench_tensors into_scratch = *t;
  into_scratch.y = static_cast<float*>(scratch);
  int status = test_plugin::enqueue_layer(shape, into_scratch, s, message, size);
  if (status == MISHBENCH_OK)
    status = test_plugin::cuda_status(
        cudaMemcpyAsync(t->y, scratch, bytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync",
        message, size);
  const cudaError_t freed = cudaFreeAsync(scratch, s);
  if (status == MISHBENCH_OK)
    status = test_plugin::cuda_status(freed, "cudaFreeAsync", message, size);
  return status;
}

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("honest-async-alloc", MISHBENCH_DEVICE, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
