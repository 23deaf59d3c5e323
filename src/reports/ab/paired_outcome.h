// The verdicts of `mishbench ab` from its pairs of rounds: each pair compared as compare does
// (statuses first, so that a backend the new build skips, breaks or loses in any pair gets that
// verdict), then each result's timing judged from the per-pair ratios (reports/compare/paired.h), in
// time and, when every pair has clocks, confirmed in cycles (reports/compare/clocks.h).
#pragma once
#include <vector>

#include "reports/compare/compare.h"

namespace mish {

// `pairs` holds compare_reports(base round, new round) of every pair, in order (at least one).
// The rows come in the first pair's order, then any that only later pairs have.
CompareOutcome combine_pairs(const std::vector<CompareOutcome>& pairs,
                             const CompareSettings& settings);

}  // namespace mish
