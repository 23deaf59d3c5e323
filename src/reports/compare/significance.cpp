#include "reports/compare/significance.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

namespace mish {
namespace {

// The median of `values`, which it reorders.
double median_in_place(std::vector<double>& values) {
  const size_t half = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + half, values.end());
  const double upper = values[half];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + half);
  return lower + (upper - lower) * 0.5;
}

// `limit` of `values` drawn without replacement (a partial Fisher-Yates shuffle of a copy), or
// all of them, untouched and without drawing, when there are no more.
std::vector<double> subsample(const std::vector<double>& values, size_t limit,
                              std::mt19937_64& rng) {
  if (values.size() <= limit) return values;
  std::vector<double> pool = values;
  for (size_t i = 0; i < limit; ++i) {
    std::uniform_int_distribution<size_t> pick(i, pool.size() - 1);
    std::swap(pool[i], pool[pick(rng)]);
  }
  pool.resize(limit);
  return pool;
}

}  // namespace

double fast_median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no samples");
  return median_in_place(values);
}

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t n1 = a.size(), n2 = b.size();
  if (n1 == 0 || n2 == 0) return 1.0;
  std::vector<double> x = a, y = b;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());

  // Walk both sorted sets as one: each group of equal values takes the average of its ranks;
  // accumulate the tie term sum(t^3 - t) for the variance.
  double rank_sum_a = 0.0, tie_term = 0.0;
  size_t i = 0, j = 0, ranked = 0;
  while (i < n1 || j < n2) {
    const double value = j == n2 || (i < n1 && x[i] < y[j]) ? x[i] : y[j];
    size_t in_a = 0, in_b = 0;
    while (i < n1 && x[i] == value) ++i, ++in_a;
    while (j < n2 && y[j] == value) ++j, ++in_b;
    const double t = double(in_a + in_b);
    const double average_rank = double(ranked) + 0.5 * (t + 1.0);  // ranks ranked+1 .. ranked+t
    rank_sum_a += double(in_a) * average_rank;
    tie_term += t * t * t - t;
    ranked += in_a + in_b;
  }
  const double n = double(n1 + n2);
  const double u = rank_sum_a - double(n1) * double(n1 + 1) / 2.0;
  const double mean = double(n1) * double(n2) / 2.0;
  const double variance = double(n1) * double(n2) / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
  if (variance <= 0.0) return 1.0;  // every value identical
  const double z = (std::fabs(u - mean) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(std::max(z, 0.0) / std::sqrt(2.0)));
}

RatioInterval bootstrap_median_ratio(const std::vector<double>& a, const std::vector<double>& b,
                                     double confidence, int resamples, uint64_t seed) {
  if (a.empty() || b.empty()) throw std::invalid_argument("bootstrap needs samples on both sides");
  RatioInterval interval;
  interval.ratio = fast_median(b) / fast_median(a);
  std::mt19937_64 rng(seed);
  const std::vector<double> sa = subsample(a, kBootstrapSubsample, rng);
  const std::vector<double> sb = subsample(b, kBootstrapSubsample, rng);
  std::vector<double> ratios(static_cast<size_t>(resamples));
  std::vector<double> ra(sa.size()), rb(sb.size());
  std::uniform_int_distribution<size_t> pick_a(0, sa.size() - 1), pick_b(0, sb.size() - 1);
  for (double& ratio : ratios) {
    for (double& v : ra) v = sa[pick_a(rng)];
    for (double& v : rb) v = sb[pick_b(rng)];
    ratio = median_in_place(rb) / median_in_place(ra);
  }
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1.0 - confidence) / 2.0;
  const auto at = [&](double q) {
    const size_t index = static_cast<size_t>(std::floor(q * double(ratios.size() - 1) + 0.5));
    return ratios[std::min(index, ratios.size() - 1)];
  };
  interval.low = at(tail);
  interval.high = at(1.0 - tail);
  return interval;
}

}  // namespace mish
