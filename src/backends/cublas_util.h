// cuBLAS plumbing shared by the library-based backends.
#pragma once
#include <cublasLt.h>
#include <cublas_v2.h>

#include <cstdint>

#include "problem/problem.h"

namespace mish {

[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call, const char* file,
                                     int line);

#define MISH_CUBLAS_CHECK(call)                                                   \
  do {                                                                            \
    const cublasStatus_t mish_cublas_status_ = (call);                            \
    if (mish_cublas_status_ != CUBLAS_STATUS_SUCCESS)                             \
      ::mish::throw_cublas_error(mish_cublas_status_, #call, __FILE__, __LINE__); \
  } while (0)

// Owns a cuBLAS handle bound to one stream.
class CublasHandle {
 public:
  CublasHandle();
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

// y[m,n] = x[m,k] * W[n,k]^T in row-major terms, via the column-major identity
// y^T = W * x^T (op(W) = T with ld k, x^T with ld k, y^T with ld n). Pure FP32 unless
// `compute` asks for another compute type.
void gemm_xwt(cublasHandle_t handle, const Problem& problem, const float* x, const float* w,
              float* y, cudaStream_t stream, cublasComputeType_t compute = CUBLAS_COMPUTE_32F);

}  // namespace mish
