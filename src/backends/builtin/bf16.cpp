// `bf16`: x and W rounded to bf16 (8 significant bits), one tensor-core GEMM with fp32
// accumulation and fp32 output, then the fused bias+Mish+Mish kernel. W is converted once in
// prepack, x in every run. Expected to miss 1e-4: the rounding alone costs ~2^-9 per operand.
#include <cuda_bf16.h>

#include <optional>

#include "backends/builtin/cublas_util.h"
#include "base/cuda/device_arena.h"
#include "core/backend/backend.h"
#include "epilogue.cuh"
#include "split.cuh"

namespace mish {
namespace {

class Bf16Backend final : public Backend {
 public:
  std::string_view name() const override { return "bf16"; }
  std::string_view summary() const override {
    return "x, W rounded to bf16, one tensor-core GEMM (fp32 accumulate) + fused epilogue";
  }
  std::string_view math_mode() const override { return "bf16"; }
  Accuracy expected_accuracy() const override { return Accuracy::reduced; }
  bool prepacks_weights() const override { return true; }

  void setup(const Problem& problem, const Tensors&, cudaStream_t) override {
    problem_ = problem;
    handle_.emplace();
    arena_.emplace();
    w_part_ = arena_->reserve<__nv_bfloat16>(problem.w_count());
    x_part_ = arena_->reserve<__nv_bfloat16>(problem.x_count());
    arena_->allocate("bf16");
  }

  void prepack(const Tensors& t, cudaStream_t stream) override {
    launch_round_to_bf16(t.w, arena_->get(w_part_), problem_.w_count(), stream);
  }

  void run(const Tensors& t, cudaStream_t stream) override {
    launch_round_to_bf16(t.x, arena_->get(x_part_), problem_.x_count(), stream);
    XwtGemm gemm;
    gemm.m = problem_.m, gemm.n = problem_.n, gemm.k = problem_.k;
    gemm.operand_row_stride = problem_.k;
    gemm.operand_type = CUDA_R_16BF;
    gemm_xwt(handle_->get(), gemm, arena_->get(x_part_), arena_->get(w_part_), t.y, stream);
    launch_bias_mish(t.y, t.b, problem_.m, problem_.n, kLayerMishCount, stream);
  }

  nlohmann::json describe() const override {
    return {{"gemm", "cublasGemmEx CUDA_R_16BF x CUDA_R_16BF -> CUDA_R_32F, CUBLAS_COMPUTE_32F"},
            {"epilogue_kernels", 1},
            {"tensor_core_passes", 1},
            {"device_workspace_bytes", arena_ ? arena_->bytes() : 0}};
  }

 private:
  Problem problem_;
  std::optional<CublasHandle> handle_;
  std::optional<DeviceArena> arena_;
  DeviceArena::Part<__nv_bfloat16> w_part_, x_part_;
};

}  // namespace

std::unique_ptr<Backend> make_bf16_backend() { return std::make_unique<Bf16Backend>(); }

}  // namespace mish
