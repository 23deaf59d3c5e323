// One timed series (plain launches, graph replays, or one stage): every sample, its summary, why
// sampling stopped, the clocks read while it ran, and the warnings it deserves.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/timing/clocks.h"
#include "core/timing/sampling.h"
#include "core/timing/statistics.h"
#include "core/timing/stopping.h"

namespace mish {

struct TimedSeries {
  std::vector<double> samples_ms;  // in the order taken
  TimingStats stats;
  StopReason stopped_by = StopReason::iters;
  std::optional<ClockSummary> clocks;  // when NVML was available
  int gate_timeouts = 0;
};

// `with_clocks`: whether clock readings were attempted (a ClockMonitor was attached).
TimedSeries make_series(Sampling sampling, bool with_clocks);

// Spread above these marks draws a warning.
constexpr double kNoisyCiRelativeWidth = 0.05;  // median's 95% CI wider than 5% of the median
constexpr double kNoisyIqrRelative = 0.10;      // IQR above 10% of the median

// Console and JSON warnings for a series named `label` ("fused", "fused graph", "fused/gemm"):
// large spread, leading outliers (too little warm-up), throttled samples, a stream gate that timed
// out, and a --max-noise target missed because --timeout or the sample cap came first.
std::vector<std::string> series_warnings(const std::string& label, const TimedSeries& series,
                                         const StoppingRule& rule);

}  // namespace mish
