#include "reports/compare/clocks.h"

#include <fmt/format.h>

#include <cmath>

namespace mish {

std::string clock_difference(const SampleClocks& base, const SampleClocks& fresh) {
  std::vector<std::string> parts;
  if (std::fabs(fresh.sm_mhz_median / base.sm_mhz_median - 1.0) > kClockDifference)
    parts.push_back(fmt::format("SM clock {:.0f} → {:.0f} MHz", base.sm_mhz_median,
                                fresh.sm_mhz_median));
  if (std::fabs(fresh.power_capped - base.power_capped) > kCappedDifference)
    parts.push_back(fmt::format("power-capped {:.0f}% → {:.0f}% of samples",
                                100 * base.power_capped, 100 * fresh.power_capped));
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::vector<double> in_cycles(const std::vector<double>& samples_ms, const SampleClocks& clocks) {
  std::vector<double> cycles;
  cycles.reserve(samples_ms.size());
  for (const double ms : samples_ms) cycles.push_back(ms * clocks.sm_mhz_median);
  return cycles;
}

Verdict confirmed_in_cycles(Verdict in_time, Verdict in_cycle_space, const RatioInterval& cycles,
                            std::string& reason) {
  const bool a_difference = in_time == Verdict::slower || in_time == Verdict::faster;
  if (!a_difference || in_cycle_space == in_time) return in_time;
  reason = fmt::format(
      "{} in time, but {} in cycles (time × SM clock: ratio {:.3f} [{:.3f}, {:.3f}]); the "
      "difference follows the clock",
      to_string(in_time), to_string(in_cycle_space), cycles.ratio, cycles.low, cycles.high);
  return Verdict::unsure;
}

}  // namespace mish
