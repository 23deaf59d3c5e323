// `naive`: our own tiled CUDA-core GEMM with bias + Mish + Mish at the store (kernels/naive_gemm.cu).
#include <fmt/format.h>

#include "base/common/rounding.h"
#include "core/backend/backend.h"
#include "naive_gemm.cuh"

namespace mish {
namespace {

class NaiveBackend final : public Backend {
 public:
  std::string_view name() const override { return "naive"; }
  std::string_view summary() const override {
    return "our textbook shared-memory tiled FP32 GEMM with bias+Mish+Mish at the store";
  }
  std::string_view math_mode() const override { return "fp32"; }

  Support supports(const Problem& problem, const DeviceInfo*) const override {
    constexpr int64_t kMaxGridY = 65535;
    if (ceil_div(problem.m, kNaiveTile) > kMaxGridY)
      return {false, fmt::format("m={} needs more than {} row tiles of {}", problem.m, kMaxGridY,
                                 kNaiveTile)};
    return {};
  }
  void setup(const Problem& problem, const Tensors&, cudaStream_t) override { problem_ = problem; }
  void run(const Tensors& t, cudaStream_t stream) override {
    launch_naive_linear_mish(t.x, t.w, t.b, t.y, problem_.m, problem_.n, problem_.k, stream);
  }
  nlohmann::json describe() const override {
    return {{"tile", fmt::format("{}x{}", kNaiveTile, kNaiveTile)},
            {"block", fmt::format("{}x{}", kNaiveTile, kNaiveTile)},
            {"grid", fmt::format("{}x{}", ceil_div(problem_.n, kNaiveTile),
                                 ceil_div(problem_.m, kNaiveTile))}};
  }

 private:
  Problem problem_;
};

}  // namespace

std::unique_ptr<Backend> make_naive_backend() { return std::make_unique<NaiveBackend>(); }

}  // namespace mish
