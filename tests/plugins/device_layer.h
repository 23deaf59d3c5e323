// What the device test plugins share: the honest layer on the device (mishbench's own naive
// kernel, known to verify) and a CUDA error turned into a plugin message.
#pragma once
#include <cuda_runtime.h>

#include "test_plugin.h"

namespace test_plugin {

// Enqueues y = mish(mish(x W^T + b)) on `stream`; MISHBENCH_ERROR with the CUDA error otherwise.
int enqueue_layer(const mishbench_shape& shape, const mishbench_tensors& t, cudaStream_t stream,
                  char* message, size_t size);

// MISHBENCH_OK for cudaSuccess, else MISHBENCH_ERROR with "<what>: <CUDA error>".
int cuda_status(cudaError_t status, const char* what, char* message, size_t size);

inline int run_honest_device(void* instance, const mishbench_tensors* t, void* stream,
                             char* message, size_t size) {
  return enqueue_layer(shape_of(instance), *t, static_cast<cudaStream_t>(stream), message, size);
}

}  // namespace test_plugin
