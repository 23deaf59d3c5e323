// `mishbench compare BASE.json NEW.json`: matches results by (problem, backend, device) and
// decides, per pair, FASTER / SLOWER / SAME / UNSURE from the raw samples (bootstrap interval of
// the median ratio and a Mann-Whitney test) and a minimum effect size; a result of BASE that is
// missing, skipped or failing in NEW has a verdict of its own that fails the gate unless its
// backend is allowed to. Rules in docs/compare.md.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reports/compare/report_input.h"
#include "reports/compare/significance.h"
#include "reports/compare/verdict.h"

namespace mish {

// How results of reports with devices are paired: by CUDA device index (device 1 of BASE with
// device 1 of NEW, whichever card it is), or by device UUID (the same card, wherever it sits).
enum class DeviceMatch { index, uuid };
std::string to_string(DeviceMatch match);
DeviceMatch parse_device_match(const std::string& text);  // throws UsageError

struct CompareSettings : DecisionRule {
  bool allow_device_mismatch = false;
  bool allow_shared_gpu = false;  // gate on figures taken while other processes used the GPU
  DeviceMatch match = DeviceMatch::index;
  // Backends whose MISSING, SKIPPED or UNTIMED rows (allow_missing) or BROKEN rows
  // (allow_broken) are reported but do not fail the gate.
  std::set<std::string> allow_missing, allow_broken;
};

struct Comparison {
  std::string backend;  // as the reports spell it: escape it to display it
  ProblemKey problem;
  std::string device;  // the device matched on: its CUDA index or UUID; empty without a device
  std::string base_status, new_status;
  double base_ms = 0.0, new_ms = 0.0;  // medians; 0 for a side without samples
  RatioInterval ratio;
  double p_value = 1.0;
  Verdict verdict = Verdict::untimed;
  std::optional<RatioInterval> cycles;  // the ratio in cycles, when both sides have clocks
  std::string clocks;    // how the sides' SM clocks differed (clocks.h); empty when alike
  std::string reason;    // why the verdict, when the columns do not say it
  bool fails = false;    // the verdict fails the gate and the backend is not allowed to
  bool allowed = false;  // the verdict would fail, but the backend is in an allow-list
  bool has_ratio() const { return ratio.ratio > 0; }  // the samples were compared
};

struct CompareOutcome {
  std::string title = "mishbench compare";  // the table's heading
  std::string method;                       // how the ratio, its interval and p were found
  std::string base_label, new_label;        // the paths, as given
  // Device or settings differences worth saying; report text in them is shortened, not escaped.
  std::vector<std::string> notes;
  std::vector<Comparison> rows;
  bool per_device = false;  // a report has several devices: the rows name theirs
  int failures() const;      // rows that fail the gate
};

// Throws UsageError when the reports cannot be compared (a report in which nothing was timed;
// different devices without allow_device_mismatch; UUIDs asked of a report without them; two
// results of one report on the same key, as a merged report of several hosts has under index
// matching).
CompareOutcome compare_reports(const ReportSummary& base, const ReportSummary& fresh,
                               const CompareSettings& settings);

// Sets row.fails and row.allowed from its verdict and the allow-lists.
void apply_gate(Comparison& row, const CompareSettings& settings);

}  // namespace mish
