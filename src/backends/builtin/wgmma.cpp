// `wgmma`: our fused Hopper kernel (kernels/wgmma_fp16x3.cu). W is split into scaled fp16 hi/lo
// in prepack (timed apart as prepack_ms); each run splits x (one small kernel) and then computes
// the whole layer, GEMM through bias + Mish + Mish, in one kernel.
#include <fmt/format.h>

#include <optional>
#include <string>

#include "backends/builtin/options.h"
#include "base/common/rounding.h"
#include "base/cuda/cuda_check.cuh"
#include "base/cuda/device_arena.h"
#include "base/cuda/device_buffer.h"
#include "core/backend/backend.h"
#include "row_split_fp16.cuh"
#include "wgmma_fp16x3.cuh"

namespace mish {
namespace {

// The kernel addresses rows and columns of the split operands and numbers its output tiles
// with 32-bit integers.
constexpr int64_t kMaxRows = int64_t(1) << 30;
constexpr int64_t kMaxTiles = (int64_t(1) << 31) - 1;
constexpr int kMaxGroupM = 1 << 20;
constexpr int kMaxSlices = 1024;

class WgmmaBackend final : public Backend {
 public:
  std::string_view name() const override { return "wgmma"; }
  std::string_view summary() const override {
    return "our fused sm_90a kernel: TMA + wgmma fp16x3 (scaled hi/lo), FP32 promotion, "
           "bias+Mish+Mish epilogue";
  }
  std::string_view math_mode() const override { return "fp16x3"; }
  bool prepacks_weights() const override { return true; }

  // group_m: m tiles per group of the kernel's tile walk (0: all of them, one group; unset:
  // wgmma_default_group_m); slices: the split-K factor (0: the plan's).
  void configure(const nlohmann::json& options) override {
    for (const auto& item : options.items()) {
      const std::string& key = item.key();
      if (key == "group_m")
        group_m_ = integer_option(name(), key, item.value(), 0, kMaxGroupM);
      else if (key == "slices")
        slices_ = integer_option(name(), key, item.value(), 0, kMaxSlices);
      else
        unknown_option(name(), key, "its options are group_m and slices");
    }
  }

  Support supports(const Problem& p, const DeviceInfo* device) const override {
    if (device == nullptr) return {false, "needs a CUDA device"};
    if (device->cc_major != 9 || device->cc_minor != 0)
      return {false, fmt::format("needs compute capability 9.0 (Hopper, sm_90a); {} is {}",
                                 device->name, device->compute_capability())};
    if (p.m >= kMaxRows || p.n >= kMaxRows || p.k >= kMaxRows ||
        ceil_div(p.m, kWgmmaTileM) * ceil_div(p.n, kWgmmaTileN) > kMaxTiles ||
        wgmma_w_split_boxes(p.n, p.k) > kMaxTiles)
      return {false, fmt::format("m, n and k must be below {} and give at most {} output tiles "
                                 "and {} blocks of W",
                                 kMaxRows, kMaxTiles, kMaxTiles)};
    if (!wgmma_kernel_available())
      return {false, "this build holds no sm_90a code; configure with "
                     "CMAKE_CUDA_ARCHITECTURES including 90a"};
    return {};
  }

  void setup(const Problem& p, const Tensors&, cudaStream_t stream) override {
    problem_ = p;
    x_layout_ = wgmma_x_split_layout(nullptr, p.m, p.k);
    x_split_ = DeviceBuffer<__half>(uint64_t(x_layout_.elements()));
    x_layout_.split = x_split_.get();
    x_unscale_ = DeviceBuffer<float>(p.m);
    w_layout_ = wgmma_w_split_layout(nullptr, p.k);
    w_split_ = DeviceBuffer<__half>(uint64_t(w_layout_.elements(p.n)));
    w_layout_.split = w_split_.get();
    // The blocks' parts past n and k are never written by the split and must read as zeros.
    MISH_CUDA_CHECK(cudaMemsetAsync(w_split_.get(), 0, w_split_.bytes(), stream));
    w_unscale_ = DeviceBuffer<float>(p.n);
    operands_.x_split = x_split_.get();
    operands_.x_unscale = x_unscale_.get();
    operands_.w_split = w_split_.get();
    operands_.w_unscale = w_unscale_.get();
    operands_.m = p.m;
    operands_.n = p.n;
    operands_.k = p.k;
    operands_.group_m = group_m_.value_or(wgmma_default_group_m(p.k));
    maps_ = prepare_wgmma_layer(operands_);
    int device = 0, sms = 0;
    MISH_CUDA_CHECK(cudaGetDevice(&device));
    MISH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    plan_ = plan_wgmma_layer(p.m, p.n, p.k, sms, slices_);
    split_k_.emplace();
    const auto workspace = split_k_->reserve<float>(plan_.workspace_bytes / sizeof(float));
    const auto counters = split_k_->reserve<int>(size_t(plan_.counters));
    split_k_->allocate("wgmma");  // zero-filled: the tile counters start at zero
    operands_.slices = plan_.slices;
    operands_.slice_blocks = plan_.slice_blocks;
    operands_.workspace = split_k_->get(workspace);
    operands_.counters = split_k_->get(counters);
    operands_.pairs = plan_.pairs;
  }

  void prepack(const Tensors& t, cudaStream_t stream) override {
    launch_row_split_fp16(t.w, problem_.n, problem_.k, kWgmmaRowTopExponent, w_layout_,
                          w_unscale_.get(), stream);
  }

  void run(const Tensors& t, cudaStream_t stream) override {
    launch_row_split_fp16(t.x, problem_.m, problem_.k, kWgmmaRowTopExponent, x_layout_,
                          x_unscale_.get(), stream);
    WgmmaLayerOperands operands = operands_;
    operands.bias = t.b;
    operands.y = t.y;
    launch_wgmma_fp16x3_layer(operands, maps_, plan_.ctas, stream);
  }

  nlohmann::json describe() const override {
    const bool transposed = plan_.transposed_n > 0;
    return {{"scheme", "fp16x3: per-row power-of-two scales, x.w ~ xh.wh + xh.wl + xl.wh"},
            {"tile", transposed ? fmt::format("{}x{}x{} (W rows x x rows x k, transposed)",
                                              kWgmmaTileN, plan_.transposed_n, kWgmmaBlockK)
                                : fmt::format("{}x{}x{}", kWgmmaTileM, kWgmmaTileN, kWgmmaBlockK)},
            {"ring_slots", wgmma_ring_slots(plan_.transposed_n)},
            {"x_operand", transposed
                              ? fmt::format("wgmma B from shared memory: TMA tiles of {} rows, in "
                                            "W's ring slot",
                                            plan_.transposed_n)
                              : "wgmma A from shared memory: TMA tiles in the ring"},
            {"accumulators", "xh.wh in fp32, xh.wl + xl.wh in fp16"},
            {"row_scale", fmt::format("largest |v| of a row in [2^{}, 2^{})", kWgmmaRowTopExponent,
                                      kWgmmaRowTopExponent + 1)},
            {"promote_every_k", kWgmmaPromoteK},
            {"promote_corrections_every_k", kWgmmaPromoteK * kWgmmaCorrectionPromoteChunks},
            {"first_chunk_k", kWgmmaFirstChunkK},
            {"kernel", transposed
                           ? fmt::format("wgmma_fp16x3_layer_kernel<{}>: the tile transposed, "
                                         "64 rows of W per consumer warpgroup by x's rows "
                                         "padded to {}",
                                         plan_.transposed_n, plan_.transposed_n)
                           : "wgmma_fp16x3_layer_kernel<0>: 64 rows of x per consumer "
                             "warpgroup by 128 of W"},
            {"transposed_n", plan_.transposed_n},
            {"ctas", plan_.ctas},
            {"split_k", plan_.slices},
            {"split_k_pairs", plan_.pairs},
            {"workspace_bytes", plan_.workspace_bytes},
            {"group_m", operands_.group_m},
            {"threads", kWgmmaThreads},
            {"shared_bytes", wgmma_layer_shared_bytes()},
            {"kernels_per_run", 2},
            {"tensor_core_passes", 3},
            {"prepack", fmt::format("W split to fp16 hi/lo in blocks of {} rows x {} of k, one span "
                                    "each", kWgmmaTileN, kWgmmaBlockK)}};
  }

 private:
  Problem problem_;
  SplitRows x_layout_;
  SplitTileBlocks w_layout_;
  DeviceBuffer<__half> x_split_, w_split_;
  DeviceBuffer<float> x_unscale_, w_unscale_;
  WgmmaLayerOperands operands_;
  WgmmaTensorMaps maps_{};
  WgmmaPlan plan_;
  std::optional<DeviceArena> split_k_;  // the parts' workspace and the tile counters
  std::optional<int> group_m_;
  int slices_ = 0;
};

}  // namespace

std::unique_ptr<Backend> make_wgmma_backend() { return std::make_unique<WgmmaBackend>(); }

}  // namespace mish
