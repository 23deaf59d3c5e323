// `separate`, `fused` and `tf32`: one cuBLAS GemmEx on the fp32 operands as given, then the
// elementwise tail either as three kernels (bias, Mish, Mish: what PyTorch eager launches) or as
// one fused bias+Mish+Mish kernel. `tf32` lets cuBLAS round the operands to TF32 on the tensor
// cores (CUBLAS_COMPUTE_32F_FAST_TF32): the speed reference, expected to miss 1e-4.
#include <fmt/format.h>

#include <optional>

#include "backends/builtin/cublas_util.h"
#include "backends/builtin/epilogue_launch.h"
#include "core/backend/backend.h"
#include "epilogue.cuh"

namespace mish {
namespace {

enum class Tail { separate, fused };

struct Variant {
  std::string_view name;
  std::string_view summary;
  Tail tail;
  cublasComputeType_t compute;
  std::string_view compute_name;
  std::string_view math_mode;
  Accuracy accuracy;
  int tensor_core_passes;
};

constexpr Variant kSeparate{"separate",
                            "cuBLAS SGEMM (FP32) + bias, Mish, Mish as three kernels (PyTorch eager)",
                            Tail::separate, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F", "fp32",
                            Accuracy::fp32, 0};
constexpr Variant kFused{"fused", "cuBLAS SGEMM (FP32) + one fused bias+Mish+Mish kernel",
                         Tail::fused, CUBLAS_COMPUTE_32F, "CUBLAS_COMPUTE_32F", "fp32",
                         Accuracy::fp32, 0};
constexpr Variant kTf32{"tf32",
                        "cuBLAS TF32 tensor cores, one pass + fused epilogue (misses 1e-4 by design)",
                        Tail::fused, CUBLAS_COMPUTE_32F_FAST_TF32, "CUBLAS_COMPUTE_32F_FAST_TF32",
                        "tf32", Accuracy::reduced, 1};

class CublasGemmBackend final : public GemmThenEpilogueBackend {
 public:
  explicit CublasGemmBackend(const Variant& variant) : variant_(variant) {}

  std::string_view name() const override { return variant_.name; }
  std::string_view summary() const override { return variant_.summary; }
  std::string_view math_mode() const override { return variant_.math_mode; }
  Accuracy expected_accuracy() const override { return variant_.accuracy; }

  void setup(const Problem& problem, const Tensors& t, cudaStream_t) override {
    problem_ = problem;
    y_ = t.y;
    bias_ = t.b;
    handle_.emplace();
    MISH_CUBLAS_CHECK(cublasSetMathMode(handle_->get(), CUBLAS_DEFAULT_MATH));
  }

  nlohmann::json describe() const override {
    return {{"gemm", fmt::format("cublasGemmEx {}, CUBLAS_DEFAULT_MATH", variant_.compute_name)},
            {"epilogue_kernels", variant_.tail == Tail::separate ? 3 : 1},
            {"epilogue_launch", describe_epilogue_launch(y_, bias_, problem_)},
            {"tensor_core_passes", variant_.tensor_core_passes},
            {"device_workspace_bytes", 0}};
  }

 private:
  bool epilogue_reads_bias() const override { return true; }

  void enqueue_gemm(const Tensors& t, cudaStream_t stream) const override {
    gemm_xwt(handle_->get(), problem_, t.x, t.w, t.y, stream, variant_.compute);
  }

  void enqueue_epilogue(const Tensors& t, cudaStream_t stream) const override {
    if (variant_.tail == Tail::fused) {
      launch_bias_mish(t.y, t.b, problem_.m, problem_.n, kLayerMishCount, stream);
    } else {
      launch_bias_mish(t.y, t.b, problem_.m, problem_.n, 0, stream);
      launch_bias_mish(t.y, nullptr, problem_.m, problem_.n, 1, stream);
      launch_bias_mish(t.y, nullptr, problem_.m, problem_.n, 1, stream);
    }
  }

  const Variant& variant_;
  const float* y_ = nullptr;
  const float* bias_ = nullptr;
  std::optional<CublasHandle> handle_;
};

}  // namespace

std::unique_ptr<Backend> make_separate_backend() {
  return std::make_unique<CublasGemmBackend>(kSeparate);
}
std::unique_ptr<Backend> make_fused_backend() { return std::make_unique<CublasGemmBackend>(kFused); }
std::unique_ptr<Backend> make_tf32_backend() { return std::make_unique<CublasGemmBackend>(kTf32); }

}  // namespace mish
