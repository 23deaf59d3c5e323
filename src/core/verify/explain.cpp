#include "core/verify/explain.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/reference/reference.h"

namespace mish {
namespace {

// An element "matches" a candidate output within this many tolerances, loose enough for a
// reduced-precision backend: a candidate that is not what was computed misses it by the size of
// the outputs themselves, thousands of tolerances.
constexpr double kDiagnosisTolerances = 16.0;

// `count` indices spread evenly over [0, size), the first and the last included.
std::vector<int64_t> spread(int64_t size, int64_t count) {
  count = std::min(size, count);
  std::vector<int64_t> picked;
  for (int64_t i = 0; i < count; ++i)
    picked.push_back(count == 1 ? 0 : i * (size - 1) / (count - 1));
  return picked;
}

// |got - expected| in tolerances of `expected`.
double tolerances_off(double got, double expected, const Tolerance& tolerance) {
  return std::fabs(got - expected) / (tolerance.atol + tolerance.rtol * std::fabs(expected));
}

}  // namespace

std::string explain_mismatch(const Verification& v, const Tolerance& tolerance, int64_t k) {
  // The error relative to the worst element's input magnitude, in fp32 units: a plain fp32
  // accumulation of k terms typically lands within ~sqrt(k) of them, so a figure of that size
  // says the inputs, not the implementation, set the error (see docs/methodology.md).
  const double error = std::fabs(v.worst.got - v.worst.expected);
  return fmt::format(
      "{} of {} elements outside atol={:g} rtol={:g} ({} NaN/Inf); worst at ({}, {}): got "
      "{:.9g}, expected {:.9g}; its error is {:.3g} x 2^-24 of its input magnitude "
      "sum|x*w| = {:.3g} (plain fp32 accumulation over k={} typically reaches ~{:.0f})",
      v.mismatches, v.checked, tolerance.atol, tolerance.rtol, v.nonfinite, v.worst.row,
      v.worst.col, v.worst.got, v.worst.expected, error / v.worst.input_magnitude / 0x1p-24,
      v.worst.input_magnitude, k, std::sqrt(double(k)));
}

std::string diagnose_mismatch(const float* x, const float* w, const float* b, const float* y,
                              int64_t m, int64_t n, int64_t k, const Tolerance& tolerance) {
  if (n != k || m <= 0 || n <= 0) return "";
  const std::vector<int64_t> rows = spread(m, kDiagnosisSample);
  const std::vector<int64_t> cols = spread(n, kDiagnosisSample);
  const size_t count = rows.size() * cols.size();
  // Both products in one pass over k: the layer's x·Wᵀ reads row c of W, the untransposed x·W
  // reads column c (one row of W per step of k, so each step touches the rows once).
  std::vector<double> right(count, 0.0), untransposed(count, 0.0);
  for (int64_t i = 0; i < k; ++i)
    for (size_t r = 0; r < rows.size(); ++r) {
      const double xv = x[rows[r] * k + i];
      for (size_t c = 0; c < cols.size(); ++c) {
        right[r * cols.size() + c] += xv * double(w[cols[c] * k + i]);
        untransposed[r * cols.size() + c] += xv * double(w[i * n + cols[c]]);
      }
    }
  double worst_untransposed = 0.0, worst_right = 0.0;
  size_t off_the_layer = 0;
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c = 0; c < cols.size(); ++c) {
      const size_t e = r * cols.size() + c;
      const double got = y[rows[r] * n + cols[c]];
      const double bias = b[cols[c]];
      if (!std::isfinite(got)) return "";
      const double layer = mish_double(mish_double(right[e] + bias));
      const double other = mish_double(mish_double(untransposed[e] + bias));
      if (tolerances_off(got, other, tolerance) > kDiagnosisTolerances) return "";
      if (tolerances_off(got, layer, tolerance) > kDiagnosisTolerances) ++off_the_layer;
      worst_untransposed = std::max(worst_untransposed, std::fabs(got - other));
      worst_right = std::max(worst_right, std::fabs(got - layer));
    }
  if (2 * off_the_layer <= count) return "";
  return fmt::format(
      "the output matches W used untransposed: on {} sampled elements it is within {:.3g} of "
      "mish(mish(x·W + b)), W [N, K] read as [K, N], and up to {:.3g} from the layer's "
      "mish(mish(x·Wᵀ + b)) (a solution that keeps W as [K, N] declares "
      "MISHBENCH_WEIGHT_LAYOUT = \"kn\": docs/solutions.md)",
      count, worst_untransposed, worst_right);
}

}  // namespace mish
