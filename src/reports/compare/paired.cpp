#include "reports/compare/paired.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/timing/statistics.h"

namespace mish {

double sign_test_p(int above, int below) {
  const int n = above + below;
  if (n == 0) return 1.0;
  const int fewer = std::min(above, below);
  double tail = 0.0;  // P(X <= fewer) for X ~ Binomial(n, 1/2), summed in log space
  for (int i = 0; i <= fewer; ++i)
    tail += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) -
                     n * std::log(2.0));
  return std::min(1.0, 2.0 * tail);
}

PairedRatio paired_ratio(const std::vector<double>& ratios) {
  if (ratios.empty()) throw std::invalid_argument("paired ratio of no pairs");
  std::vector<double> sorted = ratios;
  std::sort(sorted.begin(), sorted.end());
  const MedianInterval interval = median_confidence_interval(sorted);
  PairedRatio paired;
  paired.ratio = {percentile(sorted, 0.5), interval.low, interval.high};
  const auto above = std::count_if(sorted.begin(), sorted.end(), [](double r) { return r > 1.0; });
  const auto below = std::count_if(sorted.begin(), sorted.end(), [](double r) { return r < 1.0; });
  paired.p_value = sign_test_p(int(above), int(below));
  return paired;
}

}  // namespace mish
