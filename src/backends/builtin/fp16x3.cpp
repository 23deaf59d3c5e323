// `fp16x3`: FP32-accurate products from fp16 tensor cores in one GEMM. Each row of x and of W is
// scaled by a power of two so its largest magnitude sits in [2^13, 2^14) (exact), split into fp16
// hi + lo (split_precision.cuh), and the three significant products become one fp16 GEMM with
// fp32 accumulation over a concatenated K' = 3K:
//     A = [xh | xl | xh]   (x, every run)        B = [Wl | Wh | Wh]   (W, prepack)
//   A*B^T = xh*Wl + xl*Wh + xh*Wh,  xl*Wl being below fp32 rounding.
// Tensor cores do not accumulate in exact fp32: each step truncates relative to the running sum,
// so the error grows with the number of steps taken on a large sum. Hence (1) the two small
// products come first, while the sum is still ~2^-11 of its final size, and (2) K' can be cut into
// `chunks` equal pieces (a strided-batched GEMM writing fp32 partials), which the epilogue adds in
// fp32 before undoing the scales (2^-(ex_row + ew_col)), adding the bias and applying Mish twice.
// Each segment is padded to a multiple of 8 columns (16-byte rows for the tensor cores) and K' to
// a multiple of chunks x 8; padding columns are zero in both operands and add nothing. When n is
// not a multiple of 8 the products go to a row-padded buffer (padded_output_columns).
#include <cuda_fp16.h>
#include <fmt/format.h>

#include <cstdint>
#include <optional>

#include "backends/builtin/cublas_util.h"
#include "backends/builtin/options.h"
#include "base/cuda/device_arena.h"
#include "core/backend/backend.h"
#include "epilogue.cuh"
#include "split.cuh"

namespace mish {
namespace {

// One pass: the GEMM writes y and the epilogue works in place, so no partials are needed.
constexpr int kDefaultChunks = 1;
constexpr int kMaxChunks = 64;
constexpr int64_t kColumnAlignment = 8;  // fp16 elements per 16 bytes

// Segment s of a row holds lo in the operand whose kLoSegment is s, hi otherwise.
constexpr int kXLoSegment = 1;  // A = [xh | xl | xh]
constexpr int kWLoSegment = 0;  // B = [Wl | Wh | Wh]

class Fp16x3Backend final : public Backend {
 public:
  std::string_view name() const override { return "fp16x3"; }
  std::string_view summary() const override {
    return "rows scaled by 2^e, fp16 hi+lo, one fp16 GEMM over K'=3K in fp32-summed chunks + "
           "unscaling epilogue";
  }
  std::string_view math_mode() const override { return "fp16x3"; }
  bool prepacks_weights() const override { return true; }

  void configure(const nlohmann::json& options) override {
    for (const auto& item : options.items()) {
      if (item.key() != "chunks") unknown_option(name(), item.key(), "its option is chunks");
      chunks_ = integer_option(name(), item.key(), item.value(), 1, kMaxChunks);
    }
  }

  Support supports(const Problem& problem, const DeviceInfo*) const override {
    return concatenated_k_support(
        problem.k, round_up(kSplitSegments * round_up(problem.k, kColumnAlignment),
                            kColumnAlignment * chunks_));
  }

  void setup(const Problem& problem, const Tensors&, cudaStream_t) override {
    problem_ = problem;
    segment_stride_ = round_up(problem.k, kColumnAlignment);
    chunk_length_ = round_up(ceil_div(kSplitSegments * segment_stride_, chunks_),
                             kColumnAlignment);
    row_stride_ = chunk_length_ * chunks_;
    output_columns_ = padded_output_columns(problem.n);
    handle_.emplace();
    arena_.emplace();
    a_ = arena_->reserve<__half>(uint64_t(problem.m) * row_stride_);
    b_ = arena_->reserve<__half>(uint64_t(output_columns_) * row_stride_);
    x_exponent_ = arena_->reserve<int>(problem.m);
    w_exponent_ = arena_->reserve<int>(problem.n);
    if (uses_partials())
      partials_ = arena_->reserve<float>(uint64_t(chunks_) * partial_floats());
    arena_->allocate("fp16x3");  // zero-filled: the padding columns and rows stay zero
  }

  void prepack(const Tensors& t, cudaStream_t stream) override {
    launch_split_fp16_rows(t.w, problem_.n, problem_.k, arena_->get(b_), row_stride_,
                           segment_stride_, kWLoSegment, arena_->get(w_exponent_), stream);
  }

  void run(const Tensors& t, cudaStream_t stream) override {
    launch_split_fp16_rows(t.x, problem_.m, problem_.k, arena_->get(a_), row_stride_,
                           segment_stride_, kXLoSegment, arena_->get(x_exponent_), stream);
    float* products = uses_partials() ? arena_->get(partials_) : t.y;
    XwtGemm gemm;
    gemm.m = problem_.m, gemm.n = output_columns_, gemm.k = chunk_length_;
    gemm.operand_row_stride = row_stride_;
    gemm.operand_type = CUDA_R_16F;
    gemm.compute = CUBLAS_COMPUTE_32F;
    gemm.batch = chunks_;
    gemm.operand_batch_offset = chunk_length_;
    gemm.y_batch_stride = partial_floats();
    gemm_xwt(handle_->get(), gemm, arena_->get(a_), arena_->get(b_), products, stream);
    EpilogueSource source;
    if (uses_partials()) {
      source.partials = products;
      source.partial_count = chunks_;
      source.partial_stride = partial_floats();
      source.row_stride = output_columns_;
    }
    source.row_exponent = arena_->get(x_exponent_);
    source.col_exponent = arena_->get(w_exponent_);
    launch_epilogue(t.y, source, t.b, problem_.m, problem_.n, kLayerMishCount, stream);
  }

  nlohmann::json describe() const override {
    return {{"gemm", chunks_ > 1 ? "cublasGemmStridedBatchedEx CUDA_R_16F -> CUDA_R_32F, "
                                   "CUBLAS_COMPUTE_32F, one batch entry per chunk of K'"
                                 : "cublasGemmEx CUDA_R_16F -> CUDA_R_32F, CUBLAS_COMPUTE_32F"},
            {"layout", "A = [xh | xl | xh], B = [Wl | Wh | Wh], rows scaled to max in [2^13, 2^14)"},
            {"chunks", chunks_},
            {"chunk_length", chunk_length_},
            {"k_concatenated", row_stride_},
            {"output_row_stride", output_columns_},
            {"epilogue_kernels", 1},
            {"tensor_core_passes", 3},
            {"device_workspace_bytes", arena_ ? arena_->bytes() : 0}};
  }

 private:
  // The GEMM writes y itself only with one chunk and unpadded rows.
  bool uses_partials() const { return chunks_ > 1 || output_columns_ != problem_.n; }
  int64_t partial_floats() const { return problem_.m * output_columns_; }

  int chunks_ = kDefaultChunks;
  Problem problem_;
  int64_t segment_stride_ = 0, chunk_length_ = 0, row_stride_ = 0, output_columns_ = 0;
  std::optional<CublasHandle> handle_;
  std::optional<DeviceArena> arena_;
  DeviceArena::Part<__half> a_, b_;
  DeviceArena::Part<int> x_exponent_, w_exponent_;
  DeviceArena::Part<float> partials_;
};

}  // namespace

std::unique_ptr<Backend> make_fp16x3_backend() { return std::make_unique<Fp16x3Backend>(); }

}  // namespace mish
