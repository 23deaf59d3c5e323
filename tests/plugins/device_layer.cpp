#include "device_layer.h"

#include "base/cuda/cuda_check.cuh"
#include "naive_gemm.cuh"

namespace test_plugin {

int cuda_status(cudaError_t status, const char* what, char* message, size_t size) {
  if (status == cudaSuccess) return MISHBENCH_OK;
  std::snprintf(message, size, "%s: %s", what, cudaGetErrorString(status));
  return MISHBENCH_ERROR;
}

int enqueue_layer(const mishbench_shape& s, const mishbench_tensors& t, cudaStream_t stream,
                  char* message, size_t size) {
  try {
    mish::launch_naive_linear_mish(t.x, t.w, t.b, t.y, s.m, s.n, s.k, stream);
    return MISHBENCH_OK;
  } catch (const mish::CudaError& error) {
    return fail(message, size, error.what());
  }
}

}  // namespace test_plugin
