#include "reports/ab/paired_outcome.h"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "core/timing/statistics.h"
#include "reports/compare/clocks.h"
#include "reports/compare/paired.h"

namespace mish {
namespace {

using RowKey = std::tuple<ProblemKey, std::string, std::string>;  // problem, backend, device

RowKey key_of(const Comparison& row) { return {row.problem, row.backend, row.device}; }

// The verdicts the statuses give, worst first: the one a row takes if any pair has it.
constexpr Verdict kByStatus[] = {Verdict::broken, Verdict::skipped, Verdict::missing,
                                 Verdict::untimed, Verdict::added};

// A result's rows in every pair that has it, in pair order.
struct Series {
  std::vector<const Comparison*> rows;
};

// The first row with the worst status verdict, and in how many pairs it came; null when every
// pair compared the samples.
const Comparison* worst_status(const Series& series, int& count) {
  for (const Verdict verdict : kByStatus) {
    const Comparison* first = nullptr;
    count = 0;
    for (const Comparison* row : series.rows)
      if (row->verdict == verdict) {
        if (first == nullptr) first = row;
        ++count;
      }
    if (first != nullptr) return first;
  }
  return nullptr;
}

double median_of(const Series& series, double Comparison::*field) {
  std::vector<double> values;
  for (const Comparison* row : series.rows) values.push_back(row->*field);
  return median(values);
}

// How many pairs ran at different clocks, and how the first of them differed.
std::string clock_note(const Series& series) {
  int differing = 0;
  std::string first;
  for (const Comparison* row : series.rows)
    if (!row->clocks.empty()) {
      if (differing++ == 0) first = row->clocks;
    }
  if (differing == 0) return "";
  return fmt::format("in {} of {} pairs, e.g. {}", differing, series.rows.size(), first);
}

// The paired verdict in cycles, when every pair has clocks: a time difference it does not
// confirm becomes UNSURE.
void confirm_in_cycles(const Series& series, const CompareSettings& s, Comparison& row) {
  std::vector<double> ratios;
  for (const Comparison* pair : series.rows) {
    if (!pair->cycles) return;
    ratios.push_back(pair->cycles->ratio);
  }
  const PairedRatio cycles = paired_ratio(ratios);
  row.cycles = cycles.ratio;
  row.verdict = confirmed_in_cycles(row.verdict, decide(cycles.ratio, cycles.p_value, s),
                                    cycles.ratio, row.reason);
}

Comparison combine(const Series& series, const CompareSettings& s) {
  const size_t pairs = series.rows.size();
  int count = 0;
  if (const Comparison* worst = worst_status(series, count)) {
    Comparison row = *worst;
    const std::string where = fmt::format("in {} of {} pairs", count, pairs);
    row.reason = row.reason.empty() ? where : fmt::format("{} ({})", row.reason, where);
    row.clocks.clear();
    apply_gate(row, s);
    return row;
  }
  Comparison row = *series.rows.front();
  row.base_ms = median_of(series, &Comparison::base_ms);
  row.new_ms = median_of(series, &Comparison::new_ms);
  std::vector<double> ratios;
  for (const Comparison* pair : series.rows) ratios.push_back(pair->ratio.ratio);
  const PairedRatio paired = paired_ratio(ratios);
  row.ratio = paired.ratio;
  row.p_value = paired.p_value;
  row.verdict = decide(row.ratio, row.p_value, s);
  row.reason.clear();
  row.cycles.reset();
  row.clocks = clock_note(series);
  confirm_in_cycles(series, s, row);
  apply_gate(row, s);
  return row;
}

// A result that neither round of some pairs has (the builds' results vary between rounds):
// MISSING in those pairs.
Comparison absent_from_pairs(const Series& series, size_t pairs, const CompareSettings& s) {
  Comparison row = *series.rows.front();
  row.verdict = Verdict::missing;
  row.reason = fmt::format("in neither round of {} of {} pairs", pairs - series.rows.size(),
                           pairs);
  row.ratio = {};
  row.cycles.reset();
  row.clocks.clear();
  apply_gate(row, s);
  return row;
}

}  // namespace

CompareOutcome combine_pairs(const std::vector<CompareOutcome>& pairs, const CompareSettings& s) {
  CompareOutcome outcome;
  outcome.title = "mishbench ab";
  outcome.method = fmt::format(
      "ratio = median of the {} per-pair ratios of new median / base median (rounds in ABBA "
      "order) with its 95% order-statistic interval; p from a two-sided sign test",
      pairs.size());
  outcome.per_device = pairs.front().per_device;
  outcome.notes = pairs.front().notes;
  std::vector<RowKey> order;
  std::map<RowKey, Series> series;
  for (const CompareOutcome& pair : pairs)
    for (const Comparison& row : pair.rows) {
      const auto [at, fresh] = series.try_emplace(key_of(row));
      if (fresh) order.push_back(key_of(row));
      at->second.rows.push_back(&row);
    }
  for (const RowKey& key : order) {
    const Series& of_key = series.at(key);
    outcome.rows.push_back(of_key.rows.size() == pairs.size()
                               ? combine(of_key, s)
                               : absent_from_pairs(of_key, pairs.size(), s));
  }
  return outcome;
}

}  // namespace mish
