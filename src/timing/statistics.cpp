#include "timing/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace mish {

double percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("percentile of no samples");
  const double position = q * double(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - double(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
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
  return s;
}

}  // namespace mish
