// When to stop sampling: a fixed count (--iters) or an adaptive rule (--min-time, --max-noise,
// --timeout). A pure function of the samples so far and the elapsed time, tested on synthetic
// series.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace mish {

struct StoppingRule {
  int iters = 100;                      // fixed count; the minimum count in adaptive mode
  std::optional<double> min_time_s;     // sum of the timed samples must reach this
  std::optional<double> max_noise;      // relative width of the median's 95% CI must fall below
  std::optional<double> timeout_s;      // wall time of the sampling loop after which we stop anyway
  bool adaptive() const { return min_time_s || max_noise || timeout_s; }
};

// Adaptive sampling never takes more than this many samples, whatever the other limits.
constexpr int kMaxAdaptiveSamples = 1000000;

enum class StopReason {
  iters,        // fixed count reached
  converged,    // adaptive: minimum count, minimum time and noise target all met
  timeout,      // adaptive: --timeout reached first
  max_samples,  // adaptive: kMaxAdaptiveSamples reached first
};
std::string to_string(StopReason reason);

// The rule, applied after each sample (`elapsed_s`: wall time since sampling began):
// - fixed (no adaptive flag): stop once there are `iters` samples.
// - adaptive: stop on timeout as soon as elapsed_s >= timeout_s (at least one sample is always
//   taken); otherwise stop once ALL of: count >= iters, sum of samples >= min_time_s (if given),
//   relative CI width of the median <= max_noise (if given; needs >= 6 samples, the fewest for
//   which a 95% interval exists); or at kMaxAdaptiveSamples.
std::optional<StopReason> should_stop(const StoppingRule& rule, const std::vector<double>& samples_ms,
                                      double elapsed_s);

// Relative width of the median's 95% CI (see median_confidence_interval) from unsorted samples.
double median_ci_relative_width(const std::vector<double>& samples_ms);

// Rough fraction of the work done, for the progress bar: the least advanced of the requirements
// that must all hold, or the timeout's share if that is further.
double progress_fraction(const StoppingRule& rule, const std::vector<double>& samples_ms,
                         double elapsed_s);

}  // namespace mish
