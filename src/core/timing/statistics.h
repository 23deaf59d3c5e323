// Summary statistics of timing samples (milliseconds): location, spread, a distribution-free
// confidence interval of the median and a robust outlier count.
#pragma once
#include <cstddef>
#include <vector>

namespace mish {

struct TimingStats {
  int count = 0;
  double median = 0, mean = 0, min = 0, max = 0, stdev = 0;
  double p5 = 0, p95 = 0;
  double iqr = 0;  // p75 - p25
  // 95% confidence interval of the median: order statistics chosen from Binomial(n, 1/2)
  // (see median_confidence_interval). ci_confidence is the interval's exact coverage.
  double ci_low = 0, ci_high = 0, ci_confidence = 0;
  double mad = 0;    // median absolute deviation from the median
  int outliers = 0;  // samples with |x - median| > 3.5 * 1.4826 * MAD
  // Relative width of the median's confidence interval, (ci_high - ci_low) / median.
  double ci_relative_width() const { return median > 0 ? (ci_high - ci_low) / median : 0.0; }
};

// Linear interpolation between closest ranks (numpy's default), q in [0, 1]; `sorted` ascending.
double percentile(const std::vector<double>& sorted, double q);

// percentile(sorted values, 0.5) of unsorted values; throws std::invalid_argument when empty.
double median(std::vector<double> values);

// Distribution-free 95% confidence interval of the median from order statistics: with
// B ~ Binomial(n, 1/2) the interval [x_(j), x_(n+1-j)] (1-based ranks of the sorted samples) covers
// the true median with probability 1 - 2 P(B <= j - 1), whatever the distribution. We take the
// narrowest such interval whose coverage is at least 95%: exact binomial sums up to 1000 samples,
// the normal approximation with continuity correction beyond. Below 6 samples no interval reaches
// 95% and the result is [min, max] with its lower exact coverage.
struct MedianRanks {
  int j = 1;            // the interval is [x_(j), x_(n+1-j)]
  double coverage = 0;  // probability that it covers the true median
};
MedianRanks median_ci_ranks(int n);

struct MedianInterval {
  double low = 0, high = 0;
  double coverage = 0;
};
MedianInterval median_confidence_interval(const std::vector<double>& sorted);

// The scale factor that makes the MAD a consistent estimator of the standard deviation for
// normal data, and the cut-off in those units beyond which a sample counts as an outlier
// (Iglewicz and Hoaglin's modified z-score rule).
constexpr double kMadToSigma = 1.4826;
constexpr double kOutlierCutoff = 3.5;

double median_absolute_deviation(const std::vector<double>& samples, double center);

// Whether `value` is an outlier by |x - median| > 3.5 * 1.4826 * MAD. With MAD = 0 (more than half
// the samples equal) the rule is undefined and nothing counts as an outlier.
bool is_mad_outlier(double value, double median, double mad);

// How many of the first samples, in order, are outliers: a sign of too little warm-up.
int leading_outliers(const std::vector<double>& samples, const TimingStats& stats);

TimingStats summarize(std::vector<double> samples);

}  // namespace mish
