// `cublaslt`: cuBLASLt FP32 matmul with the BIAS epilogue fused into the GEMM (cuBLASLt has no Mish
// epilogue), then one Mish+Mish kernel. The algorithm is cuBLASLt's first heuristic pick, chosen in
// setup and recorded in the report.
#include <cuda_runtime.h>

#include "backends/builtin/cublas_util.h"
#include "backends/builtin/epilogue_launch.h"
#include "base/cuda/cuda_check.cuh"
#include "core/backend/backend.h"
#include "epilogue.cuh"

namespace mish {
namespace {

constexpr size_t kWorkspaceBytes = size_t(32) << 20;

template <typename T>
T algo_config(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t attribute) {
  T value{};
  size_t written = 0;
  MISH_CUBLAS_CHECK(cublasLtMatmulAlgoConfigGetAttribute(&algo, attribute, &value, sizeof(value),
                                                         &written));
  return value;
}

class CublasLtBackend final : public GemmThenEpilogueBackend {
 public:
  ~CublasLtBackend() override { release(); }

  std::string_view name() const override { return "cublaslt"; }
  std::string_view summary() const override {
    return "cuBLASLt FP32 matmul with fused BIAS epilogue + one Mish+Mish kernel";
  }
  std::string_view math_mode() const override { return "fp32"; }

  void setup(const Problem& problem, const Tensors& t, cudaStream_t) override {
    release();  // a run over several problems sets the backend up once per problem
    problem_ = problem;
    y_ = t.y;
    const uint64_t m = problem.m, n = problem.n, k = problem.k;
    MISH_CUBLAS_CHECK(cublasLtCreate(&handle_));
    MISH_CUBLAS_CHECK(cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t transpose = CUBLAS_OP_T;
    MISH_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA,
                                                     &transpose, sizeof(transpose)));
    const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
    MISH_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                                     &epilogue, sizeof(epilogue)));
    // Column-major view (see gemm_xwt): D^T [n, m] = op(W^T [k, n]) * x^T [k, m].
    MISH_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&a_, CUDA_R_32F, k, n, k));
    MISH_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&b_, CUDA_R_32F, k, m, k));
    MISH_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&d_, CUDA_R_32F, n, m, n));
    MISH_CUDA_CHECK(cudaMalloc(&workspace_, kWorkspaceBytes));

    cublasLtMatmulPreference_t preference = nullptr;
    MISH_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&preference));
    const size_t workspace = kWorkspaceBytes;
    MISH_CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(
        preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof(workspace)));
    int found = 0;
    const cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(
        handle_, desc_, a_, b_, d_, d_, preference, 1, &heuristic_, &found);
    cublasLtMatmulPreferenceDestroy(preference);
    MISH_CUBLAS_CHECK(status);
    if (found == 0) throw std::runtime_error("cuBLASLt found no algorithm for this problem");
  }

  nlohmann::json describe() const override {
    const cublasLtMatmulAlgo_t& algo = heuristic_.algo;
    return {{"gemm", "cublasLtMatmul CUBLAS_COMPUTE_32F, epilogue BIAS"},
            {"algo",
             {{"id", algo_config<int32_t>(algo, CUBLASLT_ALGO_CONFIG_ID)},
              {"tile", algo_config<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_TILE_ID)},
              {"stages", algo_config<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_STAGES_ID)},
              {"split_k", algo_config<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM)},
              {"reduction_scheme",
               algo_config<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME)},
              {"cta_swizzling", algo_config<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING)},
              {"custom_option", algo_config<uint32_t>(algo, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION)},
              {"waves_count", heuristic_.wavesCount},
              {"workspace_bytes", heuristic_.workspaceSize}}},
            {"epilogue_kernels", 1},
            {"epilogue_launch", describe_epilogue_launch(y_, nullptr, problem_)}};
  }

 private:
  // The bias rides in the GEMM's epilogue, so the epilogue stage is only Mish + Mish.
  bool epilogue_reads_bias() const override { return false; }

  void enqueue_gemm(const Tensors& t, cudaStream_t stream) const override {
    MISH_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                                     &t.b, sizeof(t.b)));
    const float one = 1.0f, zero = 0.0f;
    MISH_CUBLAS_CHECK(cublasLtMatmul(handle_, desc_, &one, t.w, a_, t.x, b_, &zero, t.y, d_, t.y,
                                     d_, &heuristic_.algo, workspace_, kWorkspaceBytes, stream));
  }

  void enqueue_epilogue(const Tensors& t, cudaStream_t stream) const override {
    launch_bias_mish(t.y, nullptr, problem_.m, problem_.n, kLayerMishCount, stream);
  }

  void release() {
    if (a_) cublasLtMatrixLayoutDestroy(a_);
    if (b_) cublasLtMatrixLayoutDestroy(b_);
    if (d_) cublasLtMatrixLayoutDestroy(d_);
    if (desc_) cublasLtMatmulDescDestroy(desc_);
    if (handle_) cublasLtDestroy(handle_);
    if (workspace_) MISH_CUDA_CHECK_NOTHROW(cudaFree(workspace_));
    a_ = b_ = d_ = nullptr;
    desc_ = nullptr;
    handle_ = nullptr;
    workspace_ = nullptr;
  }

  const float* y_ = nullptr;
  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, d_ = nullptr;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  void* workspace_ = nullptr;
};

}  // namespace

std::unique_ptr<Backend> make_cublaslt_backend() { return std::make_unique<CublasLtBackend>(); }

}  // namespace mish
