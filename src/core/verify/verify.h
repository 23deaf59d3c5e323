// Element-by-element check of a backend's output against the float64 reference:
// |y - ref| <= atol + rtol * |ref| for every element; NaN and Inf always fail.
#pragma once
#include <cstdint>
#include <string>

namespace mish {

struct Tolerance {
  double atol = 1e-4;
  double rtol = 1e-4;
};

struct WorstElement {
  int64_t row = -1;
  int64_t col = -1;
  double got = 0.0;
  double expected = 0.0;
  // sum_k |x[row,k] * w[col,k]| + |b[col]|: the size of the terms an fp32 accumulation rounds
  // along the way, which bounds how close any fp32 GEMM can get. Filled in by the caller that has
  // the inputs (0 = not computed).
  double input_magnitude = 0.0;
};

// The input magnitude of output (row, col): sum_k |x[row,k] w[col,k]| + |b[col]|, in double.
double input_magnitude(const float* x, const float* w, const float* b, int64_t k, int64_t row,
                       int64_t col);

struct Verification {
  uint64_t checked = 0;
  uint64_t mismatches = 0;  // elements outside the tolerance, non-finite ones included
  uint64_t nonfinite = 0;   // NaN or Inf in the output
  double max_abs = 0.0;     // over finite elements
  double max_rel = 0.0;     // |y - ref| / |ref| over finite elements with ref != 0
  WorstElement worst;       // the element furthest outside (or closest to) its tolerance
  // A cause of the failure its inputs show (verify/explain.h), filled in by the caller that has
  // them; "" when none was found or looked for.
  std::string diagnosis;
  bool passed() const { return mismatches == 0 && checked > 0; }
};

Verification verify(const float* y, const double* ref, int64_t rows, int64_t cols,
                    const Tolerance& tolerance);

}  // namespace mish
