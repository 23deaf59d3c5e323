// Noise-aware comparison of two sets of timing samples.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mish {

// The median in O(n) (a selection, not a sort): the same number as median() in
// core/timing/statistics.h, as both interpolate the two middle values alike.
double fast_median(std::vector<double> values);

// Two-sided Mann-Whitney U test (normal approximation with tie correction and continuity
// correction): the probability of a rank difference at least this large if both sets come from
// one distribution. 1.0 when either set is empty. O(n log n).
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

struct RatioInterval {
  double ratio = 0.0;  // median(b) / median(a)
  double low = 0.0;    // bounds of the percentile bootstrap interval
  double high = 0.0;
};

// Sets larger than this are bootstrapped from this many of their samples, drawn without
// replacement with the bootstrap's seed: the interval is then wider than the whole set would
// give (conservative), and a 1 000 000-sample comparison takes a fraction of a second.
constexpr size_t kBootstrapSubsample = 4000;

// Percentile bootstrap interval of median(b) / median(a) at `confidence` (e.g. 0.95), resampling
// each set independently `resamples` times with a fixed seed, so the result is reproducible.
// The ratio itself is taken from all the samples.
RatioInterval bootstrap_median_ratio(const std::vector<double>& a, const std::vector<double>& b,
                                     double confidence = 0.95, int resamples = 2000,
                                     uint64_t seed = 1);

}  // namespace mish
