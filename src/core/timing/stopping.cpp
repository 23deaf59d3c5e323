#include "core/timing/stopping.h"

#include <algorithm>
#include <numeric>

#include "core/timing/statistics.h"

namespace mish {
namespace {

double sum_seconds(const std::vector<double>& samples_ms) {
  return std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0) * 1e-3;
}

// The k-th smallest (0-based) of `values`, reordering them.
double order_statistic(std::vector<double>& values, size_t k) {
  std::nth_element(values.begin(), values.begin() + k, values.end());
  return values[k];
}

}  // namespace

std::string to_string(StopReason reason) {
  switch (reason) {
    case StopReason::iters: return "iters";
    case StopReason::converged: return "converged";
    case StopReason::timeout: return "timeout";
    case StopReason::max_samples: return "max_samples";
  }
  return "unknown";
}

double median_ci_relative_width(const std::vector<double>& samples_ms) {
  if (samples_ms.empty()) return 0.0;
  // Three order statistics in O(n) instead of a sort: this runs after every sample.
  std::vector<double> values = samples_ms;
  const size_t n = values.size();
  const MedianRanks ranks = median_ci_ranks(static_cast<int>(n));
  const double high = order_statistic(values, n - ranks.j);
  const double low = order_statistic(values, ranks.j - 1);
  const double median =
      n % 2 == 1 ? order_statistic(values, n / 2)
                 : 0.5 * (order_statistic(values, n / 2 - 1) + order_statistic(values, n / 2));
  return median > 0 ? (high - low) / median : 0.0;
}

std::optional<StopReason> should_stop(const StoppingRule& rule, const std::vector<double>& samples_ms,
                                      double elapsed_s) {
  const int count = static_cast<int>(samples_ms.size());
  if (!rule.adaptive()) {
    if (count >= rule.iters) return StopReason::iters;
    return std::nullopt;
  }
  if (count == 0) return std::nullopt;
  if (rule.timeout_s && elapsed_s >= *rule.timeout_s) return StopReason::timeout;
  if (count >= kMaxAdaptiveSamples) return StopReason::max_samples;
  if (count < rule.iters) return std::nullopt;
  if (rule.min_time_s && sum_seconds(samples_ms) < *rule.min_time_s) return std::nullopt;
  if (rule.max_noise) {
    // Too few samples for a 95% interval (n < 6) cannot show low noise.
    if (median_ci_ranks(count).coverage < 0.95) return std::nullopt;
    if (median_ci_relative_width(samples_ms) > *rule.max_noise) return std::nullopt;
  }
  return StopReason::converged;
}

double progress_fraction(const StoppingRule& rule, const std::vector<double>& samples_ms,
                         double elapsed_s) {
  const double count_share = std::min(1.0, double(samples_ms.size()) / std::max(rule.iters, 1));
  if (!rule.adaptive()) return count_share;
  double least = count_share;
  if (rule.min_time_s && *rule.min_time_s > 0)
    least = std::min(least, sum_seconds(samples_ms) / *rule.min_time_s);
  if (rule.max_noise && samples_ms.size() > 1) {
    const double width = median_ci_relative_width(samples_ms);
    // The width shrinks roughly as 1/sqrt(n): (target / width)^2 estimates the share of samples
    // taken so far.
    const double ratio = width > 0 ? *rule.max_noise / width : 1.0;
    least = std::min(least, ratio * ratio);
  }
  double fraction = std::min(1.0, least);
  if (rule.timeout_s && *rule.timeout_s > 0)
    fraction = std::max(fraction, std::min(1.0, elapsed_s / *rule.timeout_s));
  return fraction;
}

}  // namespace mish
