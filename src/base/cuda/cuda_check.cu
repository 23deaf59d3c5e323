#include "base/cuda/cuda_check.cuh"

#include <cstdio>
#include <exception>

namespace mish {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                      cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")",
                  code);
}

void terminate_on_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  if (code == cudaSuccess) return;
  std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, cudaGetErrorName(code));
  std::terminate();
}

}  // namespace mish
