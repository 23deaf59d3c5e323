// Hang: the kernel waits for a flag in device memory that nothing sets. Only a watchdog ends it.
#include "device_layer.h"

namespace {

struct Spinner {
  mishbench_shape shape;
  int* flag = nullptr;  // device memory, zero
};

__global__ void wait_for(const volatile int* flag) {
  while (*flag == 0) __nanosleep(1000);
}

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char* message, size_t size) {
  auto* self = new Spinner{*shape};
  cudaError_t status = cudaMalloc(&self->flag, sizeof(int));
  if (status == cudaSuccess) status = cudaMemset(self->flag, 0, sizeof(int));
  if (status != cudaSuccess) {
    cudaFree(self->flag);
    delete self;
    return test_plugin::cuda_status(status, "allocating the flag", message, size);
  }
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors*, void* stream, char* message, size_t size) {
  wait_for<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(static_cast<Spinner*>(instance)->flag);
  return test_plugin::cuda_status(cudaGetLastError(), "launch", message, size);
}

void teardown(void* instance) {
  auto* self = static_cast<Spinner*>(instance);
  cudaFree(self->flag);
  delete self;
}

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("never-finishes", MISHBENCH_DEVICE, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
