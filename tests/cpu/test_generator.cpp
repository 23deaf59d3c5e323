// The host input generator: deterministic per seed, and each distribution has the range and shape
// docs/methodology.md promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "../distribution_param_name.h"
#include "core/problem/generator.h"

namespace mish {
namespace {

Problem make_problem(Distribution dist, int64_t m, int64_t n, int64_t k, uint64_t seed = 42) {
  Problem p;
  p.m = m, p.n = n, p.k = k, p.seed = seed, p.distribution = dist;
  return p;
}

struct Moments {
  double mean = 0, variance = 0;
};

Moments moments(const std::vector<float>& values) {
  Moments mo;
  for (float v : values) mo.mean += v;
  mo.mean /= double(values.size());
  for (float v : values) mo.variance += (v - mo.mean) * (v - mo.mean);
  mo.variance /= double(values.size() - 1);
  return mo;
}

// Every value in [-bound, bound), reaching close to both ends, centred on zero.
void expect_uniform_symmetric(const std::vector<float>& values, float bound) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  EXPECT_GE(*lo, -bound);
  EXPECT_LT(*hi, bound);
  // N draws all miss the outer fraction f of the range with probability (1-f)^N ~ e^-15 at f = 15/N.
  const double n = double(values.size());
  const float edge = float(2.0 * bound * 15.0 / n);
  EXPECT_LT(*lo, -bound + edge);
  EXPECT_GT(*hi, bound - edge);
  // U(-a, a): mean 0 with standard error a/sqrt(3N); variance a^2/3 with relative error sqrt(0.8/N).
  const Moments mo = moments(values);
  const double variance = double(bound) * bound / 3.0;
  EXPECT_LT(std::fabs(mo.mean), 5 * bound / std::sqrt(3 * n));
  EXPECT_NEAR(mo.variance, variance, 5 * std::sqrt(0.8 / n) * variance);
}

// Irwin-Hall of 12: mean 0, variance 1 - 2^-32, tails end at +-6.
void expect_standard_normal(const std::vector<float>& values) {
  const Moments mo = moments(values);
  const double n = double(values.size());
  EXPECT_LT(std::fabs(mo.mean), 5.0 / std::sqrt(n));
  EXPECT_NEAR(mo.variance, 1.0, 5.0 * std::sqrt(2.0 / n));
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  EXPECT_GE(*lo, -6.0f);
  EXPECT_LE(*hi, 6.0f);
  EXPECT_LT(*lo, -3.5f);  // at 2.6e5 draws the extremes pass +-3.5 almost surely
  EXPECT_GT(*hi, 3.5f);
}

class GeneratorPerDistribution : public ::testing::TestWithParam<Distribution> {};

TEST_P(GeneratorPerDistribution, SameSeedGivesIdenticalInputs) {
  const Problem p = make_problem(GetParam(), 17, 33, 65);
  const HostInputs a = generate_inputs(p);
  const HostInputs b = generate_inputs(p);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.w, b.w);
  EXPECT_EQ(a.b, b.b);
}

TEST_P(GeneratorPerDistribution, DifferentSeedGivesDifferentInputs) {
  const HostInputs a = generate_inputs(make_problem(GetParam(), 17, 33, 65, 42));
  const HostInputs b = generate_inputs(make_problem(GetParam(), 17, 33, 65, 43));
  auto fraction_equal = [](const std::vector<float>& u, const std::vector<float>& v) {
    size_t equal = 0;
    for (size_t i = 0; i < u.size(); ++i) equal += u[i] == v[i];
    return double(equal) / double(u.size());
  };
  // `wide` has shared all-zero rows (1 in 64 here: row 1 of 17 rows) and 1/32 random zeros.
  EXPECT_LT(fraction_equal(a.x, b.x), 0.1);
  EXPECT_LT(fraction_equal(a.w, b.w), 0.1);
  EXPECT_LT(fraction_equal(a.b, b.b), 0.1);
}

TEST_P(GeneratorPerDistribution, TensorsAreIndependentStreams) {
  // x and W of the same shape must not repeat each other's values.
  const HostInputs in = generate_inputs(make_problem(GetParam(), 40, 40, 40));
  size_t equal_nonzero = 0;
  for (size_t i = 0; i < in.x.size(); ++i) equal_nonzero += in.x[i] == in.w[i] && in.x[i] != 0.0f;
  EXPECT_LT(equal_nonzero, in.x.size() / 100);
}

INSTANTIATE_TEST_SUITE_P(AllDistributions, GeneratorPerDistribution, kAllDistributions,
                         distribution_param_name);

TEST(GeneratorDistribution, KernelbenchMatchesTorchRandAndLinearInit) {
  const Problem p = make_problem(Distribution::kernelbench, 64, 1024, 4096);
  const HostInputs in = generate_inputs(p);
  const auto [lo, hi] = std::minmax_element(in.x.begin(), in.x.end());
  EXPECT_GE(*lo, 0.0f);
  EXPECT_LT(*hi, 1.0f);
  EXPECT_NEAR(moments(in.x).mean, 0.5, 0.01);
  const float bound = p.init_bound();
  EXPECT_FLOAT_EQ(bound, 1.0f / 64.0f);  // 1/sqrt(4096)
  expect_uniform_symmetric(in.w, bound);
  expect_uniform_symmetric(in.b, bound);
}

TEST(GeneratorDistribution, NormalHasUnitNormalXAndLinearInitWeights) {
  const Problem p = make_problem(Distribution::normal, 256, 512, 1024);
  const HostInputs in = generate_inputs(p);
  expect_standard_normal(in.x);
  expect_uniform_symmetric(in.w, p.init_bound());
  expect_uniform_symmetric(in.b, p.init_bound());
}

TEST(GeneratorDistribution, NormalUnitHasUnitNormalXAndW) {
  const Problem p = make_problem(Distribution::normal_unit, 256, 512, 1024);
  const HostInputs in = generate_inputs(p);
  expect_standard_normal(in.x);
  expect_standard_normal(in.w);
  expect_uniform_symmetric(in.b, p.init_bound());
}

TEST(GeneratorDistribution, WideHasZeroRowsExactZerosAndManyBinades) {
  const Problem p = make_problem(Distribution::wide, 200, 130, 256);
  const HostInputs in = generate_inputs(p);
  const float bound = p.init_bound();

  auto check_matrix = [&](const std::vector<float>& values, int64_t rows, float scale,
                          const char* name) {
    SCOPED_TRACE(name);
    int64_t zero_rows = 0;
    uint64_t scattered_zeros = 0, nonzeros = 0;
    bool negative = false, positive = false;
    std::set<int> binades;
    for (int64_t r = 0; r < rows; ++r) {
      const auto begin = values.begin() + r * p.k, end = begin + p.k;
      const bool all_zero = std::all_of(begin, end, [](float v) { return v == 0.0f; });
      EXPECT_EQ(all_zero, r % kWideZeroRowPeriod == 1) << "row " << r;
      if (all_zero) {
        ++zero_rows;
        continue;
      }
      for (auto it = begin; it != end; ++it) {
        if (*it == 0.0f) {
          ++scattered_zeros;
          continue;
        }
        ++nonzeros;
        // |value| in [2^-15, 1) times the scale; W's product with the scale may round up to it.
        EXPECT_LE(std::fabs(*it), scale);
        EXPECT_GE(std::fabs(*it), std::ldexp(scale, -15));
        negative |= *it < 0, positive |= *it > 0;
        binades.insert(std::ilogb(*it / scale));
      }
    }
    EXPECT_EQ(zero_rows, (rows - 2) / kWideZeroRowPeriod + 1);  // rows 1, 65, 129, ...
    // One element in 32 is an exact zero: expect 1/32 +- 20% of the non-zero-row elements.
    const double zero_fraction = double(scattered_zeros) / double(scattered_zeros + nonzeros);
    EXPECT_NEAR(zero_fraction, 1.0 / 32.0, 0.2 / 32.0);
    EXPECT_TRUE(negative && positive);
    EXPECT_GE(binades.size(), 15u);  // 2^e * [0.5, 1) for e in [-14, 0], plus rounding at the top
    EXPECT_LE(binades.size(), 16u);
  };
  check_matrix(in.x, p.m, 1.0f, "x");
  check_matrix(in.w, p.n, bound, "W");
  expect_uniform_symmetric(in.b, bound);
}

}  // namespace
}  // namespace mish
