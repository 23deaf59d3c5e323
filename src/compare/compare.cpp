#include "compare/compare.h"

#include <fmt/format.h>

#include <map>

#include "common/errors.h"
#include "common/untrusted_text.h"

namespace mish {
namespace {

const char* kHostOnly = "no GPU (host only)";

std::string device_name(const ReportSummary& report) {
  return report.device ? *report.device : kHostOnly;
}

bool verified(const std::string& status) { return status == "ok"; }
bool failed(const std::string& status) { return status == "mismatch" || status == "error"; }

}  // namespace

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster:
      return "FASTER";
    case Verdict::slower:
      return "SLOWER";
    case Verdict::same:
      return "SAME";
    case Verdict::unsure:
      return "UNSURE";
    case Verdict::untimed:
      return "UNTIMED";
    case Verdict::missing:
      return "MISSING";
    case Verdict::added:
      return "NEW";
  }
  return "?";
}

int CompareOutcome::regressions() const {
  int count = 0;
  for (const Comparison& row : rows)
    count += (row.verdict == Verdict::slower || row.correctness_regression) ? 1 : 0;
  return count;
}

Verdict decide(const RatioInterval& r, double p_value, const CompareSettings& s) {
  const double up = 1.0 + s.threshold, down = 1.0 - s.threshold;
  const bool significant = p_value < s.alpha;
  if (significant && r.ratio > up && r.low > 1.0) return Verdict::slower;
  if (significant && r.ratio < down && r.high < 1.0) return Verdict::faster;
  const bool interval_inside = r.low >= down && r.high <= up;
  const bool estimate_inside = r.ratio >= down && r.ratio <= up;
  if (interval_inside || (estimate_inside && !significant)) return Verdict::same;
  return Verdict::unsure;
}

CompareOutcome compare_reports(const ReportSummary& base, const ReportSummary& fresh,
                               const CompareSettings& s) {
  CompareOutcome outcome;
  const std::string base_device = device_name(base), new_device = device_name(fresh);
  if (base.device != fresh.device) {
    if (!s.allow_device_mismatch)
      throw UsageError(fmt::format(
          "the reports come from different devices ('{}' vs '{}'); timings are not comparable. "
          "Pass --allow-device-mismatch to compare anyway",
          for_terminal(base_device), for_terminal(new_device)));
    outcome.notes.push_back(fmt::format("devices differ: '{}' vs '{}' (compared anyway)",
                                        shortened(base_device), shortened(new_device)));
  }
  for (const auto& [key, base_value] : base.settings) {
    const auto found = fresh.settings.find(key);
    const std::string new_value = found == fresh.settings.end() ? "null" : found->second;
    if (base_value != new_value)
      outcome.notes.push_back(fmt::format("setting '{}' differs: {} vs {}", key,
                                          shortened(base_value), shortened(new_value)));
  }

  std::map<std::pair<ProblemKey, std::string>, const ReportResult*> base_results;
  for (const ReportResult& r : base.results) base_results[{r.problem, r.backend}] = &r;
  std::map<std::pair<ProblemKey, std::string>, bool> seen;

  for (const ReportResult& r : fresh.results) {
    Comparison row;
    row.backend = r.backend;
    row.problem = r.problem;
    row.new_status = r.status;
    const auto found = base_results.find({r.problem, r.backend});
    if (found == base_results.end()) {
      row.verdict = Verdict::added;
      outcome.rows.push_back(row);
      continue;
    }
    seen[found->first] = true;
    const ReportResult& b = *found->second;
    row.base_status = b.status;
    row.correctness_regression = verified(row.base_status) && failed(row.new_status);
    if (!b.samples_ms.empty() && !r.samples_ms.empty()) {
      row.base_ms = fast_median(b.samples_ms);
      row.new_ms = fast_median(r.samples_ms);
      row.ratio = bootstrap_median_ratio(b.samples_ms, r.samples_ms);
      row.p_value = mann_whitney_p(b.samples_ms, r.samples_ms);
      row.verdict = decide(row.ratio, row.p_value, s);
    }
    outcome.rows.push_back(row);
  }
  for (const auto& [key, result] : base_results) {
    if (seen.count(key)) continue;
    Comparison row;
    row.problem = key.first;
    row.backend = key.second;
    row.base_status = result->status;
    row.verdict = Verdict::missing;
    outcome.rows.push_back(row);
  }
  return outcome;
}

}  // namespace mish
