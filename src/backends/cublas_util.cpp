#include "backends/cublas_util.h"

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

namespace mish {

void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                           " failed: " + cublasGetStatusName(status) + " (" +
                           cublasGetStatusString(status) + ")");
}

CublasHandle::CublasHandle() { MISH_CUBLAS_CHECK(cublasCreate(&handle_)); }

CublasHandle::~CublasHandle() {
  const cublasStatus_t status = cublasDestroy(handle_);
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasDestroy failed: %s\n", cublasGetStatusName(status));
    std::terminate();
  }
}

void gemm_xwt(cublasHandle_t handle, const Problem& problem, const float* x, const float* w,
              float* y, cudaStream_t stream, cublasComputeType_t compute) {
  const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n),
            k = static_cast<int>(problem.k);
  const float one = 1.0f, zero = 0.0f;
  MISH_CUBLAS_CHECK(cublasSetStream(handle, stream));
  MISH_CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, w, CUDA_R_32F, k,
                                 x, CUDA_R_32F, k, &zero, y, CUDA_R_32F, n, compute,
                                 CUBLAS_GEMM_DEFAULT));
}

}  // namespace mish
