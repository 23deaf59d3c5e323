// `cpu`: the layer in fp32 on the host, so the whole pipeline runs without a GPU.
// OpenBLAS's cblas_sgemm for the product, an OpenMP loop for bias + Mish + Mish (same mish.cuh),
// both on `threads` threads (cpu_threads.h).
#include <cblas.h>

#include "backends/builtin/options.h"
#include "base/env/cpu_threads.h"
#include "core/backend/backend.h"
#include "mish.cuh"

namespace mish {
namespace {

class CpuBackend final : public Backend {
 public:
  std::string_view name() const override { return "cpu"; }
  std::string_view summary() const override {
    return "fp32 on the host: OpenBLAS sgemm + OpenMP bias+Mish+Mish (works without a GPU)";
  }
  std::string_view math_mode() const override { return "fp32"; }
  Placement placement() const override { return Placement::host; }

  // OpenBLAS's thread count is the process's: set for this backend's runs, given back after.
  ~CpuBackend() override {
    if (blas_threads_before_ > 0) openblas_set_num_threads(blas_threads_before_);
  }

  void configure(const nlohmann::json& options) override {
    for (const auto& item : options.items()) {
      if (item.key() != "threads") unknown_option(name(), item.key(), "its option is threads");
      threads_ = integer_option(name(), item.key(), item.value(), 1, kMaxCpuThreads);
    }
  }

  void setup(const Problem& problem, const Tensors&, cudaStream_t) override {
    problem_ = problem;
    if (blas_threads_before_ == 0) blas_threads_before_ = openblas_get_num_threads();
    openblas_set_num_threads(threads_);
  }

  void run(const Tensors& t, cudaStream_t) override {
    const int m = static_cast<int>(problem_.m), n = static_cast<int>(problem_.n),
              k = static_cast<int>(problem_.k);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, t.x, k, t.w, k, 0.0f, t.y,
                n);
    const int64_t count = problem_.m * problem_.n;
#pragma omp parallel for schedule(static) num_threads(threads_)
    for (int64_t i = 0; i < count; ++i) t.y[i] = mish(mish(t.y[i] + t.b[i % problem_.n]));
  }

  nlohmann::json describe() const override {
    return {{"gemm", "cblas_sgemm (OpenBLAS)"}, {"epilogue", "OpenMP loop"}, {"threads", threads_}};
  }

 private:
  Problem problem_;
  int threads_ = default_cpu_threads();
  int blas_threads_before_ = 0;  // 0 until the first setup()
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace mish
