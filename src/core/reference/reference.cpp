#include "core/reference/reference.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>

namespace mish {
namespace {

constexpr int kBlocks = 16;  // column blocks of y, one dgemm each (progress between them)

std::vector<double> widen(const std::vector<float>& values) {
  std::vector<double> wide(values.size());
  const int64_t n = static_cast<int64_t>(values.size());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) wide[i] = values[i];
  return wide;
}

}  // namespace

double mish_double(double x) { return x * std::tanh(std::log1p(std::exp(x))); }

std::vector<double> compute_reference(const Problem& problem, const HostInputs& inputs,
                                      const std::function<void(double)>& on_progress) {
  const std::vector<double> x = widen(inputs.x);
  const std::vector<double> w = widen(inputs.w);
  std::vector<double> y(problem.y_count());
  const int m = static_cast<int>(problem.m), n = static_cast<int>(problem.n),
            k = static_cast<int>(problem.k);
  // y = x * W^T: both operands row-major with leading dimension k; columns [first, first + width)
  // of y come from rows [first, first + width) of W.
  const int block = std::max(1, (n + kBlocks - 1) / kBlocks);
  for (int first = 0; first < n; first += block) {
    const int width = std::min(block, n - first);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, width, k, 1.0, x.data(), k,
                w.data() + size_t(first) * size_t(k), k, 0.0, y.data() + first, n);
    if (on_progress) on_progress(double(first + width) / double(n));
  }
  const int64_t count = static_cast<int64_t>(y.size());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < count; ++i)
    y[i] = mish_double(mish_double(y[i] + double(inputs.b[i % problem.n])));
  return y;
}

uint64_t reference_copies_bytes(const Problem& problem) {
  return 8 * (problem.x_count() + problem.w_count());
}

uint64_t blas_workspace_bytes(const Problem& problem) {
  constexpr uint64_t kBuffer = uint64_t(128) << 20;
  // OpenBLAS runs a product of at most 65536 * 4 multiply-adds on one thread
  // (SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD); each call here is one column block.
  const double block_work =
      double(problem.m) * double((problem.n + kBlocks - 1) / kBlocks) * double(problem.k);
  const int threads = block_work <= 65536.0 * 4 ? 1 : std::max(1, openblas_get_num_threads());
  return kBuffer * uint64_t(threads);
}

}  // namespace mish
