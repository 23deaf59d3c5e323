#include "backends/builtin/cublas_util.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

namespace mish {

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
  XwtGemm gemm;
  gemm.m = problem.m, gemm.n = problem.n, gemm.k = problem.k;
  gemm.operand_row_stride = problem.k;
  gemm.compute = compute;
  gemm_xwt(handle, gemm, x, w, y, stream);
}

void gemm_xwt(cublasHandle_t handle, const XwtGemm& gemm, const void* x, const void* w, float* y,
              cudaStream_t stream) {
  const int m = static_cast<int>(gemm.m), n = static_cast<int>(gemm.n),
            k = static_cast<int>(gemm.k), ld = static_cast<int>(gemm.operand_row_stride);
  const float one = 1.0f;
  MISH_CUBLAS_CHECK(cublasSetStream(handle, stream));
  if (gemm.batch == 1) {
    MISH_CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, w,
                                   gemm.operand_type, ld, x, gemm.operand_type, ld, &gemm.beta, y,
                                   CUDA_R_32F, n, gemm.compute, CUBLAS_GEMM_DEFAULT));
  } else {
    MISH_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
        handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, w, gemm.operand_type, ld,
        gemm.operand_batch_offset, x, gemm.operand_type, ld, gemm.operand_batch_offset, &gemm.beta,
        y, CUDA_R_32F, n, gemm.y_batch_stride, gemm.batch, gemm.compute, CUBLAS_GEMM_DEFAULT));
  }
}

Support concatenated_k_support(int64_t k, int64_t width) {
  if (width > INT32_MAX)
    return {false, fmt::format("k={} makes the concatenated K' = {} wider than cuBLAS's int "
                               "leading dimension", k, width)};
  return {};
}

}  // namespace mish
