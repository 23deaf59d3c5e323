#include "reports/ab/ab_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "reports/ab/paired_outcome.h"
#include "reports/ab/round_process.h"

namespace mish {
namespace {

constexpr size_t kLogEchoLimit = 300;

// Why a round that did not end with 0 or 1 (a report written) failed, as the exception to throw.
[[noreturn]] void refuse_round(const AbPlan& plan, int round, const RoundEnd& end) {
  const std::string what =
      fmt::format("round {} ({} build, '{}')", round, to_string(build_of_round(round)),
                  for_terminal(round_argv(plan, round).front(), kPathEchoLimit));
  const std::string said = for_terminal(last_log_line(log_path(plan, round)), kLogEchoLimit);
  const std::string how = end.signal_number != 0
                              ? fmt::format("was killed by signal {}", end.signal_number)
                              : fmt::format("exited {}", end.exit_code);
  const std::string message =
      fmt::format("{} {}: {}", what, how, said.empty() ? "no output" : said);
  if (end.exit_code == kExitUsage) throw UsageError(message);
  throw EnvironmentError(message);
}

class Rounds {
 public:
  Rounds(const AbPlan& plan, const CompareSettings& settings) : plan_(plan), settings_(settings) {}

  void run(int round, int planned) {
    fmt::print(stderr, "mishbench ab: round {} of {}: {} build\n", round, planned,
               to_string(build_of_round(round)));
    std::fflush(stderr);
    const RoundEnd end = run_round_process(round_argv(plan_, round), log_path(plan_, round));
    if (end.exit_code != kExitOk && end.exit_code != kExitFailure) refuse_round(plan_, round, end);
    reports_.push_back(read_report(report_path(plan_, round)));
  }

  // The pairs so far, each compared as `compare` compares two reports, and combined.
  CompareOutcome evaluate() const {
    std::vector<CompareOutcome> pairs;
    for (size_t first = 0; first + 1 < reports_.size(); first += 2) {
      const int round = int(first) + 1;
      const bool base_first = build_of_round(round) == Build::base;
      const ReportSummary& base = reports_[base_first ? first : first + 1];
      const ReportSummary& fresh = reports_[base_first ? first + 1 : first];
      pairs.push_back(compare_reports(base, fresh, settings_));
    }
    return combine_pairs(pairs, settings_);
  }

  int count() const { return int(reports_.size()); }

 private:
  const AbPlan& plan_;
  const CompareSettings& settings_;
  std::vector<ReportSummary> reports_;
};

bool any_unsure(const CompareOutcome& outcome) {
  return std::any_of(outcome.rows.begin(), outcome.rows.end(),
                     [](const Comparison& row) { return row.verdict == Verdict::unsure; });
}

void print_standing(const CompareOutcome& outcome, int pairs) {
  for (const Comparison& row : outcome.rows)
    fmt::print(stderr, "mishbench ab: after {} pairs: {} {}{}\n", pairs, for_terminal(row.backend),
               to_string(row.verdict),
               row.has_ratio() ? fmt::format(" {:.3f} [{:.3f}, {:.3f}]", row.ratio.ratio,
                                             row.ratio.low, row.ratio.high)
                               : "");
}

}  // namespace

AbResult run_ab(const AbPlan& plan, const AbBudget& budget, const CompareSettings& settings) {
  Rounds rounds(plan, settings);
  int planned = budget.rounds;
  CompareOutcome outcome;
  for (;;) {
    while (rounds.count() < planned) rounds.run(rounds.count() + 1, planned);
    outcome = rounds.evaluate();
    print_standing(outcome, planned / 2);
    if (!any_unsure(outcome) || planned >= budget.max_rounds) break;
    planned += 2;
    fmt::print(stderr, "mishbench ab: UNSURE: one more pair (rounds {} and {} of at most {})\n",
               planned - 1, planned, budget.max_rounds);
  }
  AbResult result;
  result.outcome = std::move(outcome);
  result.rounds = rounds.count();
  for (int round = 1; round <= result.rounds; ++round)
    result.reports.push_back(report_path(plan, round));
  return result;
}

}  // namespace mish
