// The float64 reference (CBLAS dgemm + bias + Mish + Mish) against a plain triple loop in long
// double on small odd shapes, where blocking and edge handling in the BLAS are most likely to slip.
#include <gtest/gtest.h>

#include <cmath>

#include "core/problem/generator.h"
#include "core/reference/reference.h"

namespace mish {
namespace {

struct Shape {
  int64_t m, n, k;
};

class ReferenceOnShape : public ::testing::TestWithParam<Shape> {};

TEST_P(ReferenceOnShape, MatchesLongDoubleTripleLoop) {
  Problem p;
  p.m = GetParam().m, p.n = GetParam().n, p.k = GetParam().k;
  p.distribution = Distribution::normal_unit;  // signed inputs and outputs across Mish's range
  const HostInputs in = generate_inputs(p);
  const std::vector<double> ref = compute_reference(p, in);
  ASSERT_EQ(ref.size(), p.y_count());
  for (int64_t i = 0; i < p.m; ++i) {
    for (int64_t j = 0; j < p.n; ++j) {
      long double dot = 0, magnitude = 0;
      for (int64_t l = 0; l < p.k; ++l) {
        const long double term = (long double)in.x[i * p.k + l] * in.w[j * p.k + l];
        dot += term;
        magnitude += std::fabs(term);
      }
      const double expected = mish_double(mish_double(double(dot + in.b[j])));
      // Products of floats are exact in double; any summation order is within (k+1) u sum|terms|,
      // u = 2^-53. Two Mish slopes (each < 1.1) scale that, and each side's Mish adds a few ulp.
      const double gemm_bound = double(p.k + 1) * 0x1.0p-53 * double(magnitude + std::fabs(in.b[j]));
      const double allowed = 1.21 * gemm_bound + 8 * 0x1.0p-53 * std::fabs(expected);
      EXPECT_NEAR(ref[i * p.n + j], expected, allowed) << "row " << i << ", col " << j;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SmallOddShapes, ReferenceOnShape,
                         ::testing::Values(Shape{1, 1, 1}, Shape{3, 5, 7}, Shape{17, 33, 65}),
                         [](const auto& info) {
                           return std::to_string(info.param.m) + "x" + std::to_string(info.param.n) +
                                  "x" + std::to_string(info.param.k);
                         });

}  // namespace
}  // namespace mish
