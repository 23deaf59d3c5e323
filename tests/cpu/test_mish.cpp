// Mish in double (the reference's) and in fp32 (kernels/mish.cuh, built for the host here) against
// values computed to 40 digits, at the extremes, and over a dense sweep.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/reference/reference.h"
#include "mish.cuh"

namespace mish {
namespace {

struct KnownValue {
  double x;
  double mish;  // x * tanh(log1p(exp(x))) to 20 significant digits (mpmath, 40 digits)
};

constexpr KnownValue kKnown[] = {
    {0.0, 0.0},
    {1.0, 0.86509838826731034612},
    {-1.0, -0.30340146137410891807},
    {0.5, 0.37524521130489510482},
    {-0.5, -0.22074377465172999682},
    {2.0, 1.9439589595339945203},
    {-2.0, -0.25250148269570886364},
    {5.0, 4.9995520775294056873},
    {-5.0, -0.033576237730161705396},
    {10.0, 9.9999999587806704305},
    {-20.0, -4.1223072406287614006e-8},
};

// Distance from `got` to `expected` in units of the fp32 spacing at `expected`.
double fp32_ulps(float got, double expected) {
  const float rounded = static_cast<float>(expected);
  const double spacing =
      std::nextafter(std::fabs(rounded), std::numeric_limits<float>::infinity()) - std::fabs(rounded);
  return std::fabs(double(got) - expected) / spacing;
}

TEST(MishDouble, MatchesKnownValues) {
  for (const KnownValue& v : kKnown)
    EXPECT_NEAR(mish_double(v.x), v.mish, 4e-16 * std::fabs(v.mish)) << "x = " << v.x;
}

TEST(MishFloat, MatchesKnownValuesWithinTwoUlp) {
  for (const KnownValue& v : kKnown)
    EXPECT_LE(fp32_ulps(mish(float(v.x)), v.mish), 2.0) << "x = " << v.x;
}

TEST(Mish, LargePositiveXGivesX) {
  for (double x : {20.0, 25.0, 100.0, 1e30}) {
    EXPECT_EQ(mish_double(x), x) << "x = " << x;
    EXPECT_EQ(mish(float(x)), float(x)) << "x = " << x;
  }
  // fp32 overflow of the old exp form starts near x = 88; the limit must stay finite to FLT_MAX.
  const float largest = std::numeric_limits<float>::max();
  EXPECT_EQ(mish(largest), largest);
}

TEST(Mish, LargeNegativeXIsFiniteAndNearZero) {
  for (double x : {-5.0, -20.0, -100.0, -1e30}) {
    const double d = mish_double(x);
    const float f = mish(float(x));
    EXPECT_TRUE(std::isfinite(d)) << "x = " << x;
    EXPECT_TRUE(std::isfinite(f)) << "x = " << x;
    // mish(x) ~ x e^x for x << 0: tiny and never positive.
    EXPECT_LE(d, 0.0) << "x = " << x;
    EXPECT_LE(f, 0.0f) << "x = " << x;
    EXPECT_LT(std::fabs(d), 0.034) << "x = " << x;
    EXPECT_LT(std::fabs(f), 0.034f) << "x = " << x;
  }
  EXPECT_LT(std::fabs(mish(-100.0f)), 1e-40f);
  EXPECT_EQ(mish(-1e30f), 0.0f);
  EXPECT_EQ(mish_double(-1e30), 0.0);
}

TEST(Mish, ZeroGivesZero) {
  EXPECT_EQ(mish_double(0.0), 0.0);
  EXPECT_EQ(mish(0.0f), 0.0f);
}

// Every multiple of 2^-14 in [-30, 30] (1 966 081 points) against mish_double. The one-exp form
// rounds six times; over all fp32 inputs in [-30, 30] its error peaks at 4.65 ulp near x = -6.77
// (mish ~ x e^x there, so every rounding shows), which is 3e-7 relative: far inside 1e-4.
TEST(MishFloat, DenseSweepStaysWithinFiveUlpOfDouble) {
  double worst_ulps = 0.0;
  float worst_x = 0.0f;
  for (int i = -30 * (1 << 14); i <= 30 * (1 << 14); ++i) {
    const float x = std::ldexp(float(i), -14);
    const double ulps = fp32_ulps(mish(x), mish_double(double(x)));
    if (ulps > worst_ulps) worst_ulps = ulps, worst_x = x;
  }
  RecordProperty("worst_ulps", std::to_string(worst_ulps));
  EXPECT_LE(worst_ulps, 5.0) << "worst at x = " << worst_x;
}

}  // namespace
}  // namespace mish
