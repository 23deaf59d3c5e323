// cuBLAS plumbing shared by the library-based backends.
#pragma once
#include <cublasLt.h>
#include <cublas_v2.h>

#include <cstdint>

#include "base/cuda/cublas_check.h"
#include "core/backend/backend.h"
#include "core/problem/problem.h"

namespace mish {

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

// The general form: `batch` products y_i = alpha * x_i * W_i^T + beta * y_i (fp32 y), where x_i and
// W_i start `operand_batch_offset` elements after x_{i-1} and W_{i-1} (a split of K into chunks
// when that offset is the chunk length) and y_i starts `y_batch_stride` floats after y_{i-1}.
struct XwtGemm {
  int64_t m = 0, n = 0, k = 0;               // k: reduction length of each product
  int64_t operand_row_stride = 0;            // elements between rows of x and of W (>= k)
  cudaDataType_t operand_type = CUDA_R_32F;  // x and W element type
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  float beta = 0.0f;
  int batch = 1;
  int64_t operand_batch_offset = 0;
  int64_t y_batch_stride = 0;
};
void gemm_xwt(cublasHandle_t handle, const XwtGemm& gemm, const void* x, const void* w, float* y,
              cudaStream_t stream);

// Whether operand rows of `width` elements, K concatenated from a problem's k, fit cuBLAS's int
// leading dimension; the reason names k and the width when they do not.
Support concatenated_k_support(int64_t k, int64_t width);

}  // namespace mish
