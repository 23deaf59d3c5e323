// Clock-aware verdicts: what the SM clock did while each side's samples were taken. A time
// difference that the clock explains (a card held lower by its power cap on one side) is not a
// change of the code: it is confirmed in cycle space (time x SM clock, as nvbench's robust
// compare does), and the row says when the two sides ran at different clocks.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "reports/compare/report_input.h"
#include "reports/compare/significance.h"
#include "reports/compare/verdict.h"

namespace mish {

// Relative difference of the median SM clocks, and of the power-capped shares, that the verdict
// row mentions.
constexpr double kClockDifference = 0.01;
constexpr double kCappedDifference = 0.10;

// "SM clock 1980 → 1755 MHz; power-capped 0% → 85% of samples", naming what differs beyond the
// limits above; empty when the sides ran alike.
std::string clock_difference(const SampleClocks& base, const SampleClocks& fresh);

// `samples` in cycles: each time x the side's median SM clock (in MHz, so kilocycles per ms).
std::vector<double> in_cycles(const std::vector<double>& samples_ms, const SampleClocks& clocks);

// The verdict once a time difference (SLOWER or FASTER) is checked in cycle space: kept when the
// cycles agree, UNSURE with `reason` set when the difference vanishes there.
Verdict confirmed_in_cycles(Verdict in_time, Verdict in_cycle_space, const RatioInterval& cycles,
                            std::string& reason);

}  // namespace mish
