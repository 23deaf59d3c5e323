// `splitk`: our small-batch kernel (kernels/splitk_fp16x3.cu). W is split into scaled fp16 hi/lo in
// the kernel's fragment order in prepack (timed apart as prepack_ms); each run is one kernel that
// streams W once over split-K CTAs, splits x itself, multiplies on mma.sync fp16x3 with FP32
// promotion, reduces the slices in a fixed order and applies bias + Mish + Mish.
#include <fmt/format.h>

#include <optional>
#include <string>

#include "backends/builtin/options.h"
#include "base/common/rounding.h"
#include "base/cuda/device_arena.h"
#include "core/backend/backend.h"
#include "splitk_fp16x3.cuh"

namespace mish {
namespace {

// The kernel numbers rows, columns, k blocks and CTAs with 32-bit integers.
constexpr int64_t kMaxExtent = int64_t(1) << 30;
constexpr int64_t kMaxTiles = (int64_t(1) << 31) - 1;
constexpr int kMaxSlices = 1024;
constexpr int kMaxPrefetchChunks = 8;

class SplitkBackend final : public Backend {
 public:
  std::string_view name() const override { return "splitk"; }
  std::string_view summary() const override {
    return "our small-batch kernel: W streamed once by split-K CTAs, mma.sync fp16x3 with FP32 "
           "promotion, fixed-order reduction, bias+Mish+Mish";
  }
  std::string_view math_mode() const override { return "fp16x3"; }
  bool prepacks_weights() const override { return true; }

  // slices: the split-K factor (0: the planner's); prefetch_chunks: W chunks requested into L2
  // ahead of the one multiplied (0: none).
  void configure(const nlohmann::json& options) override {
    for (const auto& item : options.items()) {
      const std::string& key = item.key();
      if (key == "slices") {
        tuning_.slices = integer_option(name(), key, item.value(), 0, kMaxSlices);
      } else if (key == "prefetch_chunks") {
        tuning_.prefetch_chunks = integer_option(name(), key, item.value(), 0, kMaxPrefetchChunks);
      } else {
        unknown_option(name(), key, "its options are slices and prefetch_chunks");
      }
    }
  }

  Support supports(const Problem& p, const DeviceInfo* device) const override {
    if (device == nullptr) return {false, "needs a CUDA device"};
    if (device->cc_major < 8)
      return {false, fmt::format("needs compute capability 8.0 or newer (mma.sync m16n8k16, "
                                 "cp.async); {} is {}",
                                 device->name, device->compute_capability())};
    if (p.m >= kMaxExtent || p.n >= kMaxExtent || p.k >= kMaxExtent ||
        ceil_div(p.m, 8) * ceil_div(p.n, kSplitkTileN) > kMaxTiles)
      return {false, fmt::format("m, n and k must be below {} and give at most {} output tiles",
                                 kMaxExtent, kMaxTiles)};
    if (!splitk_kernel_available())
      return {false, "this build holds no code for compute capability 8.0 or newer; configure "
                     "with CMAKE_CUDA_ARCHITECTURES including 80 or 90a"};
    return {};
  }

  void setup(const Problem& p, const Tensors&, cudaStream_t) override {
    problem_ = p;
    plan_ = plan_splitk_layer(p.m, p.n, p.k, tuning_);
    arena_.emplace();
    w_fragments_ = arena_->reserve<uint4>(size_t(splitk_weight_bytes(p.n, p.k)) / sizeof(uint4));
    w_unscale_ = arena_->reserve<float>(size_t(p.n));
    workspace_ = arena_->reserve<float4>(plan_->workspace_bytes / sizeof(float4));
    counters_ = arena_->reserve<int>(size_t(plan_->counters));
    arena_->allocate("splitk");  // zero-filled: the tile counters start at zero
  }

  void prepack(const Tensors& t, cudaStream_t stream) override {
    launch_splitk_prepack(t.w, problem_.n, problem_.k, arena_->get(w_fragments_),
                          arena_->get(w_unscale_), stream);
  }

  void run(const Tensors& t, cudaStream_t stream) override {
    SplitkLayerOperands operands;
    operands.x = t.x;
    operands.w_fragments = arena_->get(w_fragments_);
    operands.w_unscale = arena_->get(w_unscale_);
    operands.bias = t.b;
    operands.y = t.y;
    operands.workspace = arena_->get(workspace_);
    operands.counters = arena_->get(counters_);
    operands.m = problem_.m, operands.n = problem_.n, operands.k = problem_.k;
    x_in_vectors_ = splitk_stages_x_in_vectors(t.x, problem_.k);
    launch_splitk_layer(*plan_, operands, stream);
  }

  nlohmann::json describe() const override {
    nlohmann::json d = {
        {"scheme", "fp16x3: per-row power-of-two scales (W per row, x per row and 128 of K), "
                   "x.w ~ xh.wh + xh.wl + xl.wh, all in fp32 accumulators"},
        {"tensor_core_passes", 3},
        {"promote_every_k", kSplitkChunkK},
        {"reduction", "partials to a workspace, summed in slice order by the last CTA of each "
                      "tile (integer arrival counter): bit-identical from run to run"},
        {"prepack", "W split to fp16 hi/lo in mma fragment order"},
        {"kernels_per_run", 1}};
    if (!plan_) return d;
    const int rows = 8 * plan_->row_tiles;
    d["kernel"] = fmt::format("splitk_layer_kernel<{}>: mma.sync m16n8k16, {} rows of x per CTA",
                              plan_->row_tiles, rows);
    d["split_k"] = plan_->slices;
    d["tile"] =
        fmt::format("{}x{}x{}", rows, kSplitkTileN, plan_->chunks_per_slice * kSplitkChunkK);
    d["m_blocks"] = plan_->m_blocks;
    d["n_tiles"] = plan_->n_tiles;
    d["ctas"] = plan_->ctas;
    d["ctas_per_sm"] = plan_->ctas_per_sm;
    d["sms"] = plan_->sms;
    d["threads"] = plan_->threads;
    d["shared_bytes"] = plan_->shared_bytes;
    d["workspace_bytes"] = plan_->workspace_bytes;
    d["device_workspace_bytes"] = arena_ ? arena_->bytes() : 0;
    d["x_staging"] = x_in_vectors_ ? "cp.async 16-byte" : "cp.async 4-byte";
    d["prefetch_chunks"] = plan_->prefetch_chunks;
    return d;
  }

 private:
  Problem problem_;
  SplitkTuning tuning_;
  std::optional<SplitkPlan> plan_;
  std::optional<DeviceArena> arena_;
  DeviceArena::Part<uint4> w_fragments_;
  DeviceArena::Part<float> w_unscale_;
  DeviceArena::Part<float4> workspace_;
  DeviceArena::Part<int> counters_;
  bool x_in_vectors_ = false;
};

}  // namespace

std::unique_ptr<Backend> make_splitk_backend() { return std::make_unique<SplitkBackend>(); }

}  // namespace mish
