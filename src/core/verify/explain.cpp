#include "core/verify/explain.h"

#include <fmt/format.h>

#include <cmath>

namespace mish {

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

}  // namespace mish
