// The one-line reason a verification failed, with what it says about the inputs.
#pragma once
#include <cstdint>
#include <string>

#include "core/verify/verify.h"

namespace mish {

// "<n> of <checked> elements outside atol rtol (...); worst at (r, c): got, expected; its error is
// E x 2^-24 of its input magnitude ..." for a failed verification of a problem with inner size k.
std::string explain_mismatch(const Verification& v, const Tolerance& tolerance, int64_t k);

// A cause of a failed output y [m, n] that its inputs x [m, k], W [n, k] and b [n] show, or ""
// when none is found. On a square problem (n == k) W is also a [K, N] matrix, and a backend that
// reads it so computes mish(mish(x·W + b)): when y matches that on a sample of elements (in
// float64) and not the layer, "the output matches W used untransposed: ...". Costs 2·k
// multiply-adds per sampled element, at most kDiagnosisSample² of them.
constexpr int64_t kDiagnosisSample = 16;
std::string diagnose_mismatch(const float* x, const float* w, const float* b, const float* y,
                              int64_t m, int64_t n, int64_t k, const Tolerance& tolerance);

}  // namespace mish
