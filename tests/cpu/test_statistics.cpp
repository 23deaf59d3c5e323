// Timing statistics against known values: numpy's linear percentiles, the binomial order-statistic
// interval of the median (ranks from the exact binomial), its coverage and narrowing on synthetic
// samples, and the median/MAD outlier rule on planted series.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/timing/statistics.h"

namespace mish {
namespace {

// Exponential samples (median ln 2) from a fixed seed: skewed, like timing tails.
std::vector<double> exponential_samples(std::mt19937_64& rng, int n) {
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<double> samples(n);
  for (double& v : samples) v = -std::log1p(-uniform(rng));
  return samples;
}

TEST(Statistics, PercentilesMatchNumpyLinear) {
  // numpy.percentile([3, 1, 4, 1, 5, 9, 2, 6], q) for q = 5, 25, 50, 75, 95.
  const TimingStats s = summarize({3, 1, 4, 1, 5, 9, 2, 6});
  EXPECT_DOUBLE_EQ(s.p5, 1.0);
  EXPECT_DOUBLE_EQ(s.median, 3.5);
  EXPECT_DOUBLE_EQ(s.p95, 7.95);
  EXPECT_DOUBLE_EQ(s.iqr, 5.25 - 1.75);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 9.0);
  EXPECT_DOUBLE_EQ(s.mean, 31.0 / 8.0);
  EXPECT_EQ(s.count, 8);
}

TEST(Statistics, MedianIntervalRanksFollowTheBinomial) {
  // Largest j with P(B <= j - 1) <= 2.5%, B ~ Binomial(n, 1/2), from exact sums.
  EXPECT_EQ(median_ci_ranks(10).j, 2);
  EXPECT_DOUBLE_EQ(median_ci_ranks(10).coverage, 1.0 - 2.0 * 11.0 / 1024.0);
  EXPECT_EQ(median_ci_ranks(100).j, 40);  // the textbook interval x_(40) .. x_(61)
  EXPECT_NEAR(median_ci_ranks(100).coverage, 0.9648, 1e-4);
  EXPECT_EQ(median_ci_ranks(1000).j, 469);
  // Too few samples for 95%: the whole range, with its true (lower) coverage.
  EXPECT_EQ(median_ci_ranks(5).j, 1);
  EXPECT_DOUBLE_EQ(median_ci_ranks(5).coverage, 1.0 - 2.0 / 32.0);
  EXPECT_GE(median_ci_ranks(6).coverage, 0.95);
  // The normal approximation takes over above 1000 samples without a jump.
  EXPECT_NEAR(median_ci_ranks(1001).j, 469, 1);
  for (int n : {1001, 5000, 100000}) {
    EXPECT_GE(median_ci_ranks(n).coverage, 0.95) << n;
    EXPECT_LT(median_ci_ranks(n).coverage, 0.96) << n;
  }
}

TEST(Statistics, MedianIntervalCoversTheTrueMedian) {
  std::mt19937_64 rng(2024);
  const double true_median = std::log(2.0);
  const int trials = 2000;
  int covered = 0;
  for (int t = 0; t < trials; ++t) {
    const TimingStats s = summarize(exponential_samples(rng, 50));
    covered += s.ci_low <= true_median && true_median <= s.ci_high;
  }
  // Exact coverage for n = 50 is 96.7%; 2000 trials put the estimate within about 1% of it.
  EXPECT_GE(double(covered) / trials, 0.945);
}

TEST(Statistics, MedianIntervalNarrowsWithMoreSamples) {
  std::mt19937_64 rng(7);
  double previous = INFINITY;
  for (int n : {20, 100, 1000, 10000}) {
    double width = 0;
    for (int t = 0; t < 20; ++t) width += summarize(exponential_samples(rng, n)).ci_relative_width();
    EXPECT_LT(width, previous) << n;
    previous = width;
  }
  // Roughly 1/sqrt(n): at 10000 samples the interval is a few percent of the median.
  EXPECT_LT(previous / 20, 0.06);
}

TEST(Statistics, MadRuleFindsPlantedOutliers) {
  std::vector<double> samples;
  for (int i = 0; i < 100; ++i) samples.push_back(1.0 + 0.001 * (i % 10));
  samples.insert(samples.begin(), {5.0, 4.0});  // slow first samples: cold start
  samples.push_back(9.0);
  const TimingStats s = summarize(samples);
  // Median 1.005; deviations 0 (10), 0.001 .. 0.004 (20 each), 0.005 (10), three large: the 52nd
  // smallest is 0.003.
  EXPECT_DOUBLE_EQ(s.median, 1.005);
  EXPECT_NEAR(s.mad, 0.003, 1e-12);
  EXPECT_EQ(s.outliers, 3);
  EXPECT_EQ(leading_outliers(samples, s), 2);
  // Just inside and just outside the 3.5 x 1.4826 x MAD cut-off.
  const double cutoff = kOutlierCutoff * kMadToSigma * s.mad;
  EXPECT_FALSE(is_mad_outlier(s.median + 0.99 * cutoff, s.median, s.mad));
  EXPECT_TRUE(is_mad_outlier(s.median + 1.01 * cutoff, s.median, s.mad));
}

TEST(Statistics, ConstantSamplesHaveNoOutliersAndAZeroWidthInterval) {
  const TimingStats s = summarize(std::vector<double>(30, 2.5));
  EXPECT_EQ(s.outliers, 0);
  EXPECT_EQ(s.mad, 0.0);
  EXPECT_EQ(s.ci_relative_width(), 0.0);
  EXPECT_EQ(s.stdev, 0.0);
}

}  // namespace
}  // namespace mish
