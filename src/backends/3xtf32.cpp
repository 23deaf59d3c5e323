// `3xtf32`: FP32-accurate products from TF32 tensor cores. x and W are split into TF32 big + small
// (split.cuh; W in prepack, x in every run) and y = xb*Ws + xs*Wb + xb*Wb as three TF32 GEMMs
// accumulated in fp32 through beta = 1, the small terms first so the big product is added last,
// onto a small running sum; then the fused bias+Mish+Mish kernel. xs*Ws is below fp32 rounding.
#include <optional>

#include "backends/cublas_util.h"
#include "backends/factories.h"
#include "common/device_arena.h"
#include "epilogue.cuh"
#include "split.cuh"

namespace mish {
namespace {

class ThreeTf32Backend final : public Backend {
 public:
  std::string_view name() const override { return "3xtf32"; }
  std::string_view summary() const override {
    return "x, W split into TF32 big+small, three TF32 GEMMs summed in fp32 + fused epilogue";
  }
  std::string_view math_mode() const override { return "3xtf32"; }
  bool prepacks_weights() const override { return true; }

  void setup(const Problem& problem, const Tensors&, cudaStream_t) override {
    problem_ = problem;
    handle_.emplace();
    arena_.emplace();
    w_big_ = arena_->reserve<float>(problem.w_count());
    w_small_ = arena_->reserve<float>(problem.w_count());
    x_big_ = arena_->reserve<float>(problem.x_count());
    x_small_ = arena_->reserve<float>(problem.x_count());
    arena_->allocate("3xtf32");
  }

  void prepack(const Tensors& t, cudaStream_t stream) override {
    launch_split_tf32(t.w, arena_->get(w_big_), arena_->get(w_small_), problem_.w_count(), stream);
  }

  void run(const Tensors& t, cudaStream_t stream) override {
    float *xb = arena_->get(x_big_), *xs = arena_->get(x_small_);
    const float *wb = arena_->get(w_big_), *ws = arena_->get(w_small_);
    launch_split_tf32(t.x, xb, xs, problem_.x_count(), stream);
    XwtGemm gemm;
    gemm.m = problem_.m, gemm.n = problem_.n, gemm.k = problem_.k;
    gemm.operand_row_stride = problem_.k;
    gemm.compute = CUBLAS_COMPUTE_32F_FAST_TF32;
    gemm_xwt(handle_->get(), gemm, xb, ws, t.y, stream);
    gemm.beta = 1.0f;
    gemm_xwt(handle_->get(), gemm, xs, wb, t.y, stream);
    gemm_xwt(handle_->get(), gemm, xb, wb, t.y, stream);
    launch_bias_mish(t.y, t.b, problem_.m, problem_.n, 2, stream);
  }

  nlohmann::json describe() const override {
    return {{"gemm",
             "3 x cublasGemmEx CUBLAS_COMPUTE_32F_FAST_TF32 (xb*Ws, xs*Wb, xb*Wb; beta=1 sums)"},
            {"split", "big = round_to_tf32(v), small = round_to_tf32(v - big)"},
            {"epilogue_kernels", 1},
            {"tensor_core_passes", 3},
            {"device_workspace_bytes", arena_ ? arena_->bytes() : 0}};
  }

 private:
  Problem problem_;
  std::optional<CublasHandle> handle_;
  std::optional<DeviceArena> arena_;
  DeviceArena::Part<float> w_big_, w_small_, x_big_, x_small_;
};

}  // namespace

std::unique_ptr<Backend> make_3xtf32_backend() { return std::make_unique<ThreeTf32Backend>(); }

}  // namespace mish
