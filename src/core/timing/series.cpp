#include "core/timing/series.h"

#include <fmt/format.h>

namespace mish {

TimedSeries make_series(Sampling sampling, bool with_clocks) {
  TimedSeries series;
  series.stats = summarize(sampling.samples_ms);
  series.samples_ms = std::move(sampling.samples_ms);
  series.stopped_by = sampling.stopped_by;
  series.gate_timeouts = sampling.gate_timeouts;
  if (with_clocks) series.clocks = summarize_clocks(sampling.clocks);
  return series;
}

std::vector<std::string> series_warnings(const std::string& label, const TimedSeries& series,
                                         const StoppingRule& rule) {
  std::vector<std::string> warnings;
  const TimingStats& s = series.stats;
  if (s.count == 0 || s.median <= 0) return warnings;
  const double ci_width = s.ci_relative_width();
  if (ci_width > kNoisyCiRelativeWidth || s.iqr / s.median > kNoisyIqrRelative)
    warnings.push_back(fmt::format(
        "{}: noisy timing: median's 95% CI spans {:.1f}% and the IQR {:.1f}% of the median ({} "
        "samples); take more samples (--iters, --max-noise) or quiet the machine",
        label, 100.0 * ci_width, 100.0 * s.iqr / s.median, s.count));
  const int leading = leading_outliers(series.samples_ms, s);
  if (leading > 0)
    warnings.push_back(fmt::format(
        "{}: the first {} {} (|x - median| > 3.5 x 1.4826 MAD): too little warm-up, raise "
        "--warmup",
        label, leading == 1 ? "sample" : fmt::format("{} samples", leading),
        leading == 1 ? "is an outlier" : "are outliers"));
  if (series.clocks && !series.clocks->throttled_samples.empty())
    warnings.push_back(fmt::format(
        "{}: {} of {} samples ran while the GPU was throttled ({}); SM clock {}-{} MHz", label,
        series.clocks->throttled_samples.size(), s.count,
        fmt::join(throttle_reason_names(series.clocks->reasons_seen), ", "),
        series.clocks->sm_mhz_min, series.clocks->sm_mhz_max));
  if (series.gate_timeouts > 0)
    warnings.push_back(fmt::format(
        "{}: {} sample{} waited more than {:g} s for the host to enqueue (a synchronizing call in "
        "the timed work?); those samples include host time",
        label, series.gate_timeouts, series.gate_timeouts == 1 ? "" : "s", kGateTimeoutSeconds));
  if (rule.max_noise && series.stopped_by != StopReason::converged &&
      ci_width > *rule.max_noise)
    warnings.push_back(fmt::format(
        "{}: stopped by {} before the median's CI reached --max-noise={:g} (it spans {:.2f}%)",
        label, series.stopped_by == StopReason::timeout ? "--timeout" : "the sample cap",
        *rule.max_noise, 100.0 * ci_width));
  return warnings;
}

}  // namespace mish
