// Host builds of the split functions the kernels run (split_precision.cuh), checked against
// independent references: long-double arithmetic and the C library's round-to-nearest-even.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "split_precision.cuh"

namespace mish {
namespace {

// Finite floats with random signs, mantissas and exponents in [2^min_exp, 2^max_exp).
std::vector<float> random_floats(size_t count, int min_exp, int max_exp, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(min_exp, max_exp - 1);
  std::vector<float> values(count);
  for (float& v : values) v = std::ldexp(mantissa(rng), exponent(rng)) * (rng() & 1 ? -1.0f : 1.0f);
  return values;
}

// TF32 rounding done differently: the significand scaled to an 11-bit integer and rounded by the
// C library in its default mode, round-half-to-even.
float reference_tf32(float v) {
  int exponent = 0;
  const double fraction = std::frexp(double(v), &exponent);  // |fraction| in [0.5, 1)
  return static_cast<float>(std::ldexp(std::nearbyint(std::ldexp(fraction, 11)), exponent - 11));
}

double relative_error(double approx, float exact) {
  return std::fabs(approx - double(exact)) / std::fabs(double(exact));
}

TEST(SplitPrecision, RoundToTf32IsNearestEvenWithLow13BitsZero) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  for (float v : random_floats(200000, -60, 60, 1)) {
    const float rounded = round_to_tf32(v);
    EXPECT_EQ(float_bits(rounded) & 0x1fffu, 0u) << v;
    ASSERT_EQ(rounded, reference_tf32(v)) << "v = " << v;
  }
}

TEST(SplitPrecision, RoundToTf32BreaksTiesToEven) {
  // 1 + 2^-11 lies halfway between the TF32 neighbours 1 (even) and 1 + 2^-10 (odd).
  EXPECT_EQ(round_to_tf32(1.0f + 0x1p-11f), 1.0f);
  // 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even).
  EXPECT_EQ(round_to_tf32(1.0f + 3 * 0x1p-11f), 1.0f + 0x1p-9f);
  EXPECT_EQ(round_to_tf32(-(1.0f + 0x1p-11f)), -1.0f);
  // Just off the tie, the nearer neighbour wins.
  EXPECT_EQ(round_to_tf32(1.0f + 0x1p-11f + 0x1p-23f), 1.0f + 0x1p-10f);
  EXPECT_EQ(round_to_tf32(1.0f + 0x1p-11f - 0x1p-23f), 1.0f);
  // A carry out of the significand bumps the exponent.
  EXPECT_EQ(round_to_tf32(2.0f - 0x1p-23f), 2.0f);
  EXPECT_EQ(round_to_tf32(0.0f), 0.0f);
}

TEST(SplitPrecision, Tf32SplitReconstructsWithin2ToMinus22) {
  for (float v : random_floats(200000, -40, 40, 2)) {
    const Tf32Split s = split_tf32(v);
    ASSERT_EQ(float_bits(s.hi) & 0x1fffu, 0u);
    EXPECT_EQ(s.hi + s.lo, v);  // lo is exact in fp32
    // What the tensor cores see of lo: rounded to TF32 (as the split kernel stores it) or its low
    // 13 bits dropped (as hardware reading a raw fp32 would); both keep 22 bits of v.
    const float lo_rounded = round_to_tf32(s.lo);
    const float lo_truncated = bits_float(float_bits(s.lo) & ~0x1fffu);
    ASSERT_LE(relative_error(double(s.hi) + double(lo_rounded), v), 0x1p-22) << v;
    ASSERT_LE(relative_error(double(s.hi) + double(lo_truncated), v), 0x1p-22) << v;
  }
}

TEST(SplitPrecision, RowScaleExponentBringsMaxInto2To13Through2To14) {
  for (float max_abs : random_floats(100000, -100, 100, 3)) {
    max_abs = std::fabs(max_abs);
    const int e = fp16_row_scale_exponent(max_abs);
    const float scaled = std::ldexp(max_abs, e);
    ASSERT_GE(scaled, 0x1p13f) << max_abs;
    ASSERT_LT(scaled, 0x1p14f) << max_abs;
  }
  EXPECT_EQ(fp16_row_scale_exponent(0x1p13f), 0);
  EXPECT_EQ(fp16_row_scale_exponent(std::nextafter(0x1p14f, 0.0f)), 0);
  EXPECT_EQ(fp16_row_scale_exponent(0x1p14f), -1);
}

TEST(SplitPrecision, RowScaleExponentHonoursAChosenTop) {
  for (int top : {4, -3, 13}) {
    for (float max_abs : random_floats(20000, -100, 100, 7)) {
      max_abs = std::fabs(max_abs);
      const float scaled = std::ldexp(max_abs, fp16_row_scale_exponent(max_abs, top));
      ASSERT_GE(scaled, std::ldexp(1.0f, top)) << max_abs << " top " << top;
      ASSERT_LT(scaled, std::ldexp(1.0f, top + 1)) << max_abs << " top " << top;
    }
  }
}

TEST(SplitPrecision, RowScalingIsExact) {
  std::vector<float> row = random_floats(4096, -20, 3, 4);
  float max_abs = 0.0f;
  for (float v : row) max_abs = std::fmax(max_abs, std::fabs(v));
  const int e = fp16_row_scale_exponent(max_abs);
  for (float v : row) ASSERT_EQ(std::ldexp(std::ldexp(v, e), -e), v);
}

TEST(SplitPrecision, ZeroAndNonFiniteRowsGetExponentZero) {
  EXPECT_EQ(fp16_row_scale_exponent(0.0f), 0);
  EXPECT_EQ(fp16_row_scale_exponent(std::numeric_limits<float>::quiet_NaN()), 0);
  EXPECT_EQ(fp16_row_scale_exponent(std::numeric_limits<float>::infinity()), 0);
  const HalfSplit s = split_fp16(std::ldexp(0.0f, fp16_row_scale_exponent(0.0f)));
  EXPECT_EQ(__half2float(s.hi), 0.0f);
  EXPECT_EQ(__half2float(s.lo), 0.0f);
}

TEST(SplitPrecision, ExtremeRowMaximaKeepAFiniteScale) {
  // Beyond +-120 the exponent is clamped so 2^e and 2^-e stay normal fp32 numbers.
  for (float max_abs : {std::numeric_limits<float>::denorm_min(), 1e-38f, 3.0e38f}) {
    const int e = fp16_row_scale_exponent(max_abs);
    EXPECT_LE(std::abs(e), kMaxScaleExponent);
    EXPECT_TRUE(std::isfinite(std::ldexp(max_abs, e)));
    EXPECT_LT(std::ldexp(max_abs, e), 0x1p14f);
  }
}

TEST(SplitPrecision, Fp16SplitReconstructsWithin2ToMinus22NearTheRowMax) {
  // Scaled rows peak in [2^13, 2^14); values within five binades of that keep 22 bits.
  for (float v : random_floats(200000, 8, 14, 5)) {
    const HalfSplit s = split_fp16(v);
    const double sum = double(__half2float(s.hi)) + double(__half2float(s.lo));
    ASSERT_LE(relative_error(sum, v), 0x1p-22) << v;
    ASSERT_LE(std::fabs(__half2float(s.hi)), 65504.0f);
  }
}

TEST(SplitPrecision, Fp16SplitOfALowScaledRowLosesBelow2ToMinus29OfTheRowMax) {
  // A row scaled to peak in [2^4, 2^5) (the wgmma kernel's scaling): values within seven binades
  // of the peak keep 22 bits; below that lo (then hi) turns subnormal, and fp16's subnormal step
  // 2^-24 bounds the loss by 2^-25, below 2^-29 of the row's largest magnitude.
  for (float v : random_floats(200000, -30, 5, 9)) {
    const HalfSplit s = split_fp16(v);
    const double sum = double(__half2float(s.hi)) + double(__half2float(s.lo));
    if (std::fabs(v) >= 0x1p-3f) {
      ASSERT_LE(relative_error(sum, v), 0x1p-22) << v;
    } else {
      ASSERT_LE(std::fabs(sum - double(v)), 0x1p-25) << v;
    }
  }
}

}  // namespace
}  // namespace mish
