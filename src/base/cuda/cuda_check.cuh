// Error checks for CUDA runtime and cuBLAS calls. The throwing form carries file, line, the call's
// text and the error's name; the terminating form is for destructors, which must not throw.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace mish {

class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string& what, cudaError_t code) : std::runtime_error(what), code_(code) {}
  bool out_of_memory() const { return code_ == cudaErrorMemoryAllocation; }

 private:
  cudaError_t code_;
};

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);
void terminate_on_cuda_error(cudaError_t code, const char* call, const char* file, int line);

}  // namespace mish

#define MISH_CUDA_CHECK(call)                                                     \
  do {                                                                            \
    const cudaError_t mish_status_ = (call);                                      \
    if (mish_status_ != cudaSuccess)                                              \
      ::mish::throw_cuda_error(mish_status_, #call, __FILE__, __LINE__);          \
  } while (0)

// After a kernel launch: catches bad launch configurations at once.
#define MISH_CUDA_CHECK_LAUNCH() MISH_CUDA_CHECK(cudaGetLastError())

#define MISH_CUDA_CHECK_NOTHROW(call) \
  ::mish::terminate_on_cuda_error((call), #call, __FILE__, __LINE__)
