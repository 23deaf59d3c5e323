#include "core/timing/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace mish {
namespace {

constexpr double kZ95 = 1.959963984540054;  // two-sided 95% quantile of the standard normal
constexpr int kExactBinomialUpTo = 1000;

}  // namespace

double percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("percentile of no samples");
  const double position = q * double(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - double(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

MedianRanks median_ci_ranks(int n) {
  if (n < 1) throw std::invalid_argument("confidence interval of no samples");
  MedianRanks ranks;
  if (n > kExactBinomialUpTo) {
    // B ~ N(n/2, n/4): P(j <= B <= n - j) >= 95% while n/2 - j + 1/2 >= z * sqrt(n) / 2.
    const double half_width = kZ95 * std::sqrt(double(n)) / 2.0;
    ranks.j = std::max(1, static_cast<int>(std::floor(n / 2.0 + 0.5 - half_width)));
    ranks.coverage = std::erf((n / 2.0 - ranks.j + 0.5) / std::sqrt(n / 2.0));
    return ranks;
  }
  // Exact: grow j while the lower tail P(B <= j - 1) stays within 2.5% (terms summed in log space:
  // 2^-n underflows for large n). j = 1 is the fallback when even that tail is too heavy (n < 6).
  auto probability = [n](int i) {
    return std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) +
                    n * std::log(0.5));
  };
  double tail = probability(0);  // P(B <= j - 1) for the current j
  for (int i = 1, j = 2; j <= (n + 1) / 2; ++i, ++j) {
    const double next = tail + probability(i);
    if (next > 0.025) break;
    tail = next;
    ranks.j = j;
  }
  ranks.coverage = 1.0 - 2.0 * tail;
  return ranks;
}

MedianInterval median_confidence_interval(const std::vector<double>& sorted) {
  const int n = static_cast<int>(sorted.size());
  const MedianRanks ranks = median_ci_ranks(n);
  return {sorted[ranks.j - 1], sorted[n - ranks.j], ranks.coverage};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return percentile(values, 0.5);
}

double median_absolute_deviation(const std::vector<double>& samples, double center) {
  if (samples.empty()) return 0.0;
  std::vector<double> deviations(samples.size());
  std::transform(samples.begin(), samples.end(), deviations.begin(),
                 [center](double v) { return std::fabs(v - center); });
  return median(std::move(deviations));
}

bool is_mad_outlier(double value, double median, double mad) {
  return mad > 0 && std::fabs(value - median) > kOutlierCutoff * kMadToSigma * mad;
}

int leading_outliers(const std::vector<double>& samples, const TimingStats& stats) {
  int count = 0;
  while (count < static_cast<int>(samples.size()) &&
         is_mad_outlier(samples[count], stats.median, stats.mad))
    ++count;
  return count;
}

TimingStats summarize(std::vector<double> samples) {
  TimingStats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.count = static_cast<int>(samples.size());
  s.min = samples.front();
  s.max = samples.back();
  s.median = percentile(samples, 0.5);
  s.p5 = percentile(samples, 0.05);
  s.p95 = percentile(samples, 0.95);
  s.iqr = percentile(samples, 0.75) - percentile(samples, 0.25);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(s.count);
  double squares = 0.0;
  for (double v : samples) squares += (v - s.mean) * (v - s.mean);
  s.stdev = s.count > 1 ? std::sqrt(squares / double(s.count - 1)) : 0.0;
  const MedianInterval ci = median_confidence_interval(samples);
  s.ci_low = ci.low;
  s.ci_high = ci.high;
  s.ci_confidence = ci.coverage;
  s.mad = median_absolute_deviation(samples, s.median);
  s.outliers = static_cast<int>(std::count_if(samples.begin(), samples.end(), [&](double v) {
    return is_mad_outlier(v, s.median, s.mad);
  }));
  return s;
}

}  // namespace mish
