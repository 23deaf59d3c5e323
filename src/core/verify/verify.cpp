#include "core/verify/verify.h"

#include <omp.h>

#include <cmath>
#include <limits>
#include <vector>

namespace mish {
namespace {

// Per-thread partial result, merged after the parallel loop.
struct Partial {
  Verification v;
  double worst_score = -1.0;  // |y - ref| / (atol + rtol |ref|); infinity for non-finite y
  int64_t worst_index = -1;
};

void merge(Partial& into, const Partial& from) {
  into.v.checked += from.v.checked;
  into.v.mismatches += from.v.mismatches;
  into.v.nonfinite += from.v.nonfinite;
  into.v.max_abs = std::max(into.v.max_abs, from.v.max_abs);
  into.v.max_rel = std::max(into.v.max_rel, from.v.max_rel);
  if (from.worst_score > into.worst_score ||
      (from.worst_score == into.worst_score && from.worst_index < into.worst_index)) {
    into.worst_score = from.worst_score;
    into.worst_index = from.worst_index;
  }
}

}  // namespace

double input_magnitude(const float* x, const float* w, const float* b, int64_t k, int64_t row,
                       int64_t col) {
  double sum = std::fabs(double(b[col]));
  for (int64_t i = 0; i < k; ++i) sum += std::fabs(double(x[row * k + i]) * double(w[col * k + i]));
  return sum;
}

Verification verify(const float* y, const double* ref, int64_t rows, int64_t cols,
                    const Tolerance& tolerance) {
  const int64_t count = rows * cols;
  std::vector<Partial> partials(static_cast<size_t>(omp_get_max_threads()));
#pragma omp parallel
  {
    Partial& p = partials[static_cast<size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (int64_t i = 0; i < count; ++i) {
      const double got = y[i];
      const double expected = ref[i];
      const double allowed = tolerance.atol + tolerance.rtol * std::fabs(expected);
      double score;
      if (!std::isfinite(got)) {
        ++p.v.nonfinite;
        score = std::numeric_limits<double>::infinity();
      } else {
        const double abs_error = std::fabs(got - expected);
        p.v.max_abs = std::max(p.v.max_abs, abs_error);
        if (expected != 0.0) p.v.max_rel = std::max(p.v.max_rel, abs_error / std::fabs(expected));
        score = abs_error == 0.0 ? 0.0 : abs_error / allowed;  // 0/0 with atol = rtol = 0
      }
      if (!(score <= 1.0)) ++p.v.mismatches;
      if (score > p.worst_score) {
        p.worst_score = score;
        p.worst_index = i;
      }
      ++p.v.checked;
    }
  }
  Partial total;
  for (const Partial& p : partials) merge(total, p);
  Verification result = total.v;
  if (total.worst_index >= 0) {
    result.worst = {total.worst_index / cols, total.worst_index % cols, y[total.worst_index],
                    ref[total.worst_index]};
  }
  return result;
}

}  // namespace mish
