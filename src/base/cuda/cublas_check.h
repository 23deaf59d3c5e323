// The error check for cuBLAS calls, apart from the backends' cuBLAS plumbing so that code below
// the backends (the device reference in verify/) can use it. Throws with file, line, the call's
// text and the status's name. Header-only: mish_cuda does not link cuBLAS, its includers do.
#pragma once
#include <cublas_v2.h>

#include <stdexcept>
#include <string>

namespace mish {

[[noreturn]] inline void throw_cublas_error(cublasStatus_t status, const char* call,
                                            const char* file, int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                           " failed: " + cublasGetStatusName(status) + " (" +
                           cublasGetStatusString(status) + ")");
}

}  // namespace mish

#define MISH_CUBLAS_CHECK(call)                                                   \
  do {                                                                            \
    const cublasStatus_t mish_cublas_status_ = (call);                            \
    if (mish_cublas_status_ != CUBLAS_STATUS_SUCCESS)                             \
      ::mish::throw_cublas_error(mish_cublas_status_, #call, __FILE__, __LINE__); \
  } while (0)
