#include "compare/significance.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

#include "timing/statistics.h"

namespace mish {

double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t n1 = a.size(), n2 = b.size();
  if (n1 == 0 || n2 == 0) return 1.0;
  struct Item {
    double value;
    bool from_a;
  };
  std::vector<Item> all;
  all.reserve(n1 + n2);
  for (double v : a) all.push_back({v, true});
  for (double v : b) all.push_back({v, false});
  std::sort(all.begin(), all.end(), [](const Item& x, const Item& y) { return x.value < y.value; });

  // Average ranks over ties; accumulate the tie term sum(t^3 - t) for the variance.
  double rank_sum_a = 0.0, tie_term = 0.0;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j].value == all[i].value) ++j;
    const double average_rank = 0.5 * double(i + 1 + j);  // ranks i+1 .. j
    for (size_t k = i; k < j; ++k)
      if (all[k].from_a) rank_sum_a += average_rank;
    const double t = double(j - i);
    tie_term += t * t * t - t;
    i = j;
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
  interval.ratio = median(b) / median(a);
  std::mt19937_64 rng(seed);
  std::vector<double> ratios(static_cast<size_t>(resamples));
  std::vector<double> ra(a.size()), rb(b.size());
  std::uniform_int_distribution<size_t> pick_a(0, a.size() - 1), pick_b(0, b.size() - 1);
  for (double& ratio : ratios) {
    for (double& v : ra) v = a[pick_a(rng)];
    for (double& v : rb) v = b[pick_b(rng)];
    ratio = median(rb) / median(ra);
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
