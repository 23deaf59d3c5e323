// `separate` and `fused`: cuBLAS SGEMM in true FP32, then the elementwise tail either as three
// kernels (bias, Mish, Mish: what PyTorch eager launches) or as one fused bias+Mish+Mish kernel.
#include <optional>

#include "backends/cublas_util.h"
#include "backends/epilogue_launch.h"
#include "backends/factories.h"
#include "epilogue.cuh"

namespace mish {
namespace {

enum class Tail { separate, fused };

class CublasSgemmBackend final : public Backend {
 public:
  explicit CublasSgemmBackend(Tail tail) : tail_(tail) {}

  std::string_view name() const override { return tail_ == Tail::separate ? "separate" : "fused"; }
  std::string_view summary() const override {
    return tail_ == Tail::separate
               ? "cuBLAS SGEMM (FP32) + bias, Mish, Mish as three kernels (PyTorch eager)"
               : "cuBLAS SGEMM (FP32) + one fused bias+Mish+Mish kernel";
  }
  std::string_view math_mode() const override { return "fp32"; }

  void setup(const Problem& problem, const Tensors& t, cudaStream_t) override {
    problem_ = problem;
    y_ = t.y;
    handle_.emplace();
    MISH_CUBLAS_CHECK(cublasSetMathMode(handle_->get(), CUBLAS_DEFAULT_MATH));
  }

  void run(const Tensors& t, cudaStream_t stream) override {
    enqueue_gemm(t, stream);
    enqueue_epilogue(t, stream);
  }

  std::vector<Stage> stages() const override {
    return {{"gemm", StageKind::gemm, 0.0,
             [this](const Tensors& t, cudaStream_t s) { enqueue_gemm(t, s); }},
            {"epilogue", StageKind::epilogue, epilogue_bytes(problem_, true),
             [this](const Tensors& t, cudaStream_t s) { enqueue_epilogue(t, s); }}};
  }

  nlohmann::json describe() const override {
    return {{"gemm", "cublasGemmEx CUBLAS_COMPUTE_32F, CUBLAS_DEFAULT_MATH"},
            {"epilogue_kernels", tail_ == Tail::separate ? 3 : 1},
            {"epilogue_launch", describe_epilogue_launch(y_, problem_)}};
  }

 private:
  void enqueue_gemm(const Tensors& t, cudaStream_t stream) const {
    gemm_xwt(handle_->get(), problem_, t.x, t.w, t.y, stream);
  }

  void enqueue_epilogue(const Tensors& t, cudaStream_t stream) const {
    if (tail_ == Tail::fused) {
      launch_bias_mish(t.y, t.b, problem_.m, problem_.n, 2, stream);
    } else {
      launch_bias_mish(t.y, t.b, problem_.m, problem_.n, 0, stream);
      launch_bias_mish(t.y, nullptr, problem_.m, problem_.n, 1, stream);
      launch_bias_mish(t.y, nullptr, problem_.m, problem_.n, 1, stream);
    }
  }

  Tail tail_;
  Problem problem_;
  const float* y_ = nullptr;
  std::optional<CublasHandle> handle_;
};

}  // namespace

std::unique_ptr<Backend> make_separate_backend() {
  return std::make_unique<CublasSgemmBackend>(Tail::separate);
}
std::unique_ptr<Backend> make_fused_backend() {
  return std::make_unique<CublasSgemmBackend>(Tail::fused);
}

}  // namespace mish
