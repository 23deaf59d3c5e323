// `mishbench ab`'s rounds: run them in ABBA order, compare each pair, and while a verdict is
// UNSURE buy one more pair at a time, up to the budget. Progress goes to stderr.
#pragma once
#include <string>
#include <vector>

#include "reports/ab/ab_plan.h"
#include "reports/compare/compare.h"

namespace mish {

struct AbBudget {
  int rounds = 16;      // rounds run in any case (even: whole pairs)
  int max_rounds = 48;  // the most rounds UNSURE verdicts may buy (even, >= rounds)
};

struct AbResult {
  CompareOutcome outcome;
  int rounds = 0;                    // rounds run
  std::vector<std::string> reports;  // each round's report, in round order
};

// Throws UsageError when a round exits 2 (its arguments were refused) or its reports cannot be
// compared, EnvironmentError when a round exits 3, is killed by a signal or exits otherwise
// without a report.
AbResult run_ab(const AbPlan& plan, const AbBudget& budget, const CompareSettings& settings);

}  // namespace mish
