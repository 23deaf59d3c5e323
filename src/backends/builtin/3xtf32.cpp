// `3xtf32`: FP32-accurate products from TF32 tensor cores. x and W are split into TF32 big + small
// (split.cuh; W in prepack, x in every run) and the three significant products become one TF32
// GEMM with fp32 accumulation over a concatenated K' = 3K:
//     A = [xb | xs | xb]   (x, every run)        B = [Ws | Wb | Wb]   (W, prepack)
//   A*B^T = xb*Ws + xs*Wb + xb*Wb,  xs*Ws being below fp32 rounding.
// The small products come first, while the running sum is still ~2^-11 of its final size (the
// tensor cores round relative to it), and one GEMM instead of three saves two passes of y
// through memory and two launch tails. Each segment is padded to a multiple of 4 columns
// (16-byte rows); the padding is zero in both operands. Then the fused bias+Mish+Mish kernel, in
// place, or from a row-padded product when n is not a multiple of 8 (padded_output_columns).
#include <cstdint>
#include <optional>

#include "backends/builtin/cublas_util.h"
#include "base/cuda/device_arena.h"
#include "core/backend/backend.h"
#include "epilogue.cuh"
#include "split.cuh"

namespace mish {
namespace {

constexpr int64_t kColumnAlignment = 4;  // fp32 elements per 16 bytes
constexpr int kXSmallSegment = 1;        // A = [xb | xs | xb]
constexpr int kWSmallSegment = 0;        // B = [Ws | Wb | Wb]

class ThreeTf32Backend final : public Backend {
 public:
  std::string_view name() const override { return "3xtf32"; }
  std::string_view summary() const override {
    return "x, W split into TF32 big+small, one TF32 GEMM over K'=3K (small terms first) + "
           "fused epilogue";
  }
  std::string_view math_mode() const override { return "3xtf32"; }
  bool prepacks_weights() const override { return true; }

  Support supports(const Problem& problem, const DeviceInfo*) const override {
    return concatenated_k_support(problem.k,
                                  kSplitSegments * round_up(problem.k, kColumnAlignment));
  }

  void setup(const Problem& problem, const Tensors&, cudaStream_t) override {
    problem_ = problem;
    segment_stride_ = round_up(problem.k, kColumnAlignment);
    row_stride_ = kSplitSegments * segment_stride_;
    handle_.emplace();
    arena_.emplace();
    output_columns_ = padded_output_columns(problem.n);
    a_ = arena_->reserve<float>(uint64_t(problem.m) * row_stride_);
    b_ = arena_->reserve<float>(uint64_t(output_columns_) * row_stride_);
    if (output_columns_ != problem.n)
      products_ = arena_->reserve<float>(uint64_t(problem.m) * output_columns_);
    arena_->allocate("3xtf32");  // zero-filled: the padding columns and rows stay zero
  }

  void prepack(const Tensors& t, cudaStream_t stream) override {
    launch_split_tf32_rows(t.w, problem_.n, problem_.k, arena_->get(b_), row_stride_,
                           segment_stride_, kWSmallSegment, stream);
  }

  void run(const Tensors& t, cudaStream_t stream) override {
    launch_split_tf32_rows(t.x, problem_.m, problem_.k, arena_->get(a_), row_stride_,
                           segment_stride_, kXSmallSegment, stream);
    const bool padded = output_columns_ != problem_.n;
    float* products = padded ? arena_->get(products_) : t.y;
    XwtGemm gemm;
    gemm.m = problem_.m, gemm.n = output_columns_, gemm.k = row_stride_;
    gemm.operand_row_stride = row_stride_;
    gemm.compute = CUBLAS_COMPUTE_32F_FAST_TF32;
    gemm_xwt(handle_->get(), gemm, arena_->get(a_), arena_->get(b_), products, stream);
    EpilogueSource source;
    if (padded) source.partials = products, source.row_stride = output_columns_;
    launch_epilogue(t.y, source, t.b, problem_.m, problem_.n, kLayerMishCount, stream);
  }

  nlohmann::json describe() const override {
    return {{"gemm", "cublasGemmEx CUBLAS_COMPUTE_32F_FAST_TF32 over K' = 3K"},
            {"layout", "A = [xb | xs | xb], B = [Ws | Wb | Wb]"},
            {"split", "big = round_to_tf32(v), small = round_to_tf32(v - big)"},
            {"k_concatenated", row_stride_},
            {"output_row_stride", output_columns_},
            {"epilogue_kernels", 1},
            {"tensor_core_passes", 3},
            {"device_workspace_bytes", arena_ ? arena_->bytes() : 0}};
  }

 private:
  Problem problem_;
  int64_t segment_stride_ = 0, row_stride_ = 0, output_columns_ = 0;
  std::optional<CublasHandle> handle_;
  std::optional<DeviceArena> arena_;
  DeviceArena::Part<float> a_, b_, products_;
};

}  // namespace

std::unique_ptr<Backend> make_3xtf32_backend() { return std::make_unique<ThreeTf32Backend>(); }

}  // namespace mish
