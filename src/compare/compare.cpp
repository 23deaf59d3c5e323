#include "compare/compare.h"

#include <fmt/format.h>

#include <fstream>
#include <map>

#include "common/errors.h"
#include "report/schema.h"
#include "timing/statistics.h"

namespace mish {
namespace {

using nlohmann::json;

std::string problem_label(const json& p) {
  return fmt::format("{}x{}x{} {} seed {}", p.value("m", 0), p.value("n", 0), p.value("k", 0),
                     p.value("distribution", std::string("?")), p.value("seed", 0));
}

std::string device_name(const json& report) {
  const json& device = report["device"];
  return device.is_object() ? device.value("name", std::string("unknown")) : "no GPU (host only)";
}

std::vector<double> samples_of(const json& result) {
  const json& timing = result["timing"];
  if (!timing.is_object()) return {};
  return timing["samples_ms"].get<std::vector<double>>();
}

bool verified(const std::string& status) { return status == "ok"; }
bool failed(const std::string& status) { return status == "mismatch" || status == "error"; }

}  // namespace

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster: return "FASTER";
    case Verdict::slower: return "SLOWER";
    case Verdict::same: return "SAME";
    case Verdict::unsure: return "UNSURE";
    case Verdict::untimed: return "UNTIMED";
    case Verdict::missing: return "MISSING";
    case Verdict::added: return "NEW";
  }
  return "?";
}

int CompareOutcome::regressions() const {
  int count = 0;
  for (const Comparison& row : rows)
    count += (row.verdict == Verdict::slower || row.correctness_regression) ? 1 : 0;
  return count;
}

json load_report(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw UsageError(fmt::format("cannot read report '{}'", path));
  json report;
  try {
    report = json::parse(file);
  } catch (const json::parse_error& error) {
    throw UsageError(fmt::format("'{}' is not valid JSON: {}", path, error.what()));
  }
  const SchemaCheck check = check_report(report);
  if (!check.ok())
    throw UsageError(fmt::format("'{}' is not a usable mishbench report: {}", path,
                                 check.errors.front()));
  for (const std::string& warning : check.warnings)
    fmt::print(stderr, "mishbench compare: warning: '{}': {}\n", path, warning);
  return report;
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

CompareOutcome compare_reports(const json& base, const json& fresh, const CompareSettings& s) {
  CompareOutcome outcome;
  const std::string base_device = device_name(base), new_device = device_name(fresh);
  if (base_device != new_device) {
    if (!s.allow_device_mismatch)
      throw UsageError(fmt::format(
          "the reports come from different devices ('{}' vs '{}'); timings are not comparable. "
          "Pass --allow-device-mismatch to compare anyway",
          base_device, new_device));
    outcome.notes.push_back(
        fmt::format("devices differ: '{}' vs '{}' (compared anyway)", base_device, new_device));
  }
  for (const char* key : {"l2", "graph", "iters", "warmup"}) {
    const json& a = base["settings"].contains(key) ? base["settings"][key] : json();
    const json& b = fresh["settings"].contains(key) ? fresh["settings"][key] : json();
    if (a != b)
      outcome.notes.push_back(fmt::format("setting '{}' differs: {} vs {}", key, a.dump(), b.dump()));
  }

  std::map<std::pair<std::string, std::string>, const json*> base_results;
  for (const json& r : base["results"])
    base_results[{problem_label(r["problem"]), r["backend"].get<std::string>()}] = &r;
  std::map<std::pair<std::string, std::string>, bool> seen;

  for (const json& r : fresh["results"]) {
    Comparison row;
    row.backend = r["backend"].get<std::string>();
    row.problem = problem_label(r["problem"]);
    row.new_status = r["status"].get<std::string>();
    const auto found = base_results.find({row.problem, row.backend});
    if (found == base_results.end()) {
      row.verdict = Verdict::added;
      outcome.rows.push_back(row);
      continue;
    }
    seen[found->first] = true;
    const json& b = *found->second;
    row.base_status = b["status"].get<std::string>();
    row.correctness_regression = verified(row.base_status) && failed(row.new_status);
    const std::vector<double> base_samples = samples_of(b), new_samples = samples_of(r);
    if (!base_samples.empty() && !new_samples.empty()) {
      row.base_ms = median(base_samples);
      row.new_ms = median(new_samples);
      row.ratio = bootstrap_median_ratio(base_samples, new_samples);
      row.p_value = mann_whitney_p(base_samples, new_samples);
      row.verdict = decide(row.ratio, row.p_value, s);
    }
    outcome.rows.push_back(row);
  }
  for (const auto& [key, result] : base_results) {
    if (seen.count(key)) continue;
    Comparison row;
    row.problem = key.first;
    row.backend = key.second;
    row.base_status = (*result)["status"].get<std::string>();
    row.verdict = Verdict::missing;
    outcome.rows.push_back(row);
  }
  return outcome;
}

std::string to_markdown(const CompareOutcome& o, const CompareSettings& s) {
  std::string md = fmt::format("### mishbench compare: `{}` → `{}`\n\n", o.base_label, o.new_label);
  md += fmt::format(
      "Threshold {:.1f}%; ratio = new median / base median with its 95% bootstrap interval; "
      "p from a two-sided Mann–Whitney U test (alpha {}).\n\n",
      s.threshold * 100, s.alpha);
  for (const std::string& note : o.notes) md += fmt::format("> note: {}\n", note);
  if (!o.notes.empty()) md += "\n";
  md += "| backend | problem | status | base ms | new ms | ratio | 95% CI | p | verdict |\n";
  md += "|---|---|---|---:|---:|---:|---|---:|---|\n";
  for (const Comparison& r : o.rows) {
    const bool timed = r.base_ms > 0 && r.new_ms > 0;
    const std::string status =
        r.base_status.empty() ? r.new_status
        : r.new_status.empty() ? r.base_status
                               : fmt::format("{} → {}", r.base_status, r.new_status);
    std::string verdict = to_string(r.verdict);
    if (r.correctness_regression) verdict += ", **BROKEN**";
    if (r.verdict == Verdict::slower) verdict = "**" + verdict + "**";
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", r.backend, r.problem,
                      status, timed ? fmt::format("{:.4f}", r.base_ms) : "-",
                      timed ? fmt::format("{:.4f}", r.new_ms) : "-",
                      timed ? fmt::format("{:.3f}", r.ratio.ratio) : "-",
                      timed ? fmt::format("[{:.3f}, {:.3f}]", r.ratio.low, r.ratio.high) : "-",
                      timed ? fmt::format("{:.2g}", r.p_value) : "-", verdict);
  }
  const int regressions = o.regressions();
  md += regressions == 0 ? "\n**Result: no regression.**\n"
                         : fmt::format("\n**Result: {} regression{}.**\n", regressions,
                                       regressions == 1 ? "" : "s");
  return md;
}

json to_json(const CompareOutcome& o, const CompareSettings& s) {
  json rows = json::array();
  for (const Comparison& r : o.rows) {
    const bool timed = r.base_ms > 0 && r.new_ms > 0;
    rows.push_back({{"backend", r.backend},
                    {"problem", r.problem},
                    {"base_status", r.base_status},
                    {"new_status", r.new_status},
                    {"base_median_ms", timed ? json(r.base_ms) : json(nullptr)},
                    {"new_median_ms", timed ? json(r.new_ms) : json(nullptr)},
                    {"ratio", timed ? json(r.ratio.ratio) : json(nullptr)},
                    {"ratio_ci95", timed ? json::array({r.ratio.low, r.ratio.high}) : json(nullptr)},
                    {"p_value", timed ? json(r.p_value) : json(nullptr)},
                    {"verdict", to_string(r.verdict)},
                    {"correctness_regression", r.correctness_regression}});
  }
  return {{"base", o.base_label},    {"new", o.new_label},
          {"threshold", s.threshold}, {"alpha", s.alpha},
          {"notes", o.notes},         {"rows", rows},
          {"regressions", o.regressions()}};
}

}  // namespace mish
