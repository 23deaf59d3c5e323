// `mishbench compare BASE.json NEW.json`: matches results by (problem, backend, device) and
// decides, per pair, FASTER / SLOWER / SAME / UNSURE from the raw samples (bootstrap interval of
// the median ratio and a Mann-Whitney test) and a minimum effect size; a backend that verified in
// BASE and fails in NEW is a correctness regression. Rules in docs/compare.md.
#pragma once
#include <string>
#include <vector>

#include "compare/report_input.h"
#include "compare/significance.h"

namespace mish {

// How results of reports with devices are paired: by CUDA device index (device 1 of BASE with
// device 1 of NEW, whichever card it is), or by device UUID (the same card, wherever it sits).
enum class DeviceMatch { index, uuid };
std::string to_string(DeviceMatch match);
DeviceMatch parse_device_match(const std::string& text);  // throws UsageError

struct CompareSettings {
  double threshold = 0.03;  // smallest relative change that counts
  double alpha = 0.01;      // significance level of the Mann-Whitney test
  bool allow_device_mismatch = false;
  DeviceMatch match = DeviceMatch::index;
};

enum class Verdict { faster, slower, same, unsure, untimed, missing, added };
std::string to_string(Verdict verdict);

struct Comparison {
  std::string backend;  // as the reports spell it: escape it to display it
  ProblemKey problem;
  std::string device;  // the device matched on: its CUDA index or UUID; empty without a device
  std::string base_status, new_status;
  double base_ms = 0.0, new_ms = 0.0;  // medians
  RatioInterval ratio;
  double p_value = 1.0;
  Verdict verdict = Verdict::untimed;
  bool correctness_regression = false;  // verified in BASE, mismatch or error in NEW
  bool timed() const { return base_ms > 0 && new_ms > 0; }
};

struct CompareOutcome {
  std::string base_label, new_label;  // the paths, as given
  // Device or settings differences worth saying; report text in them is shortened, not escaped.
  std::vector<std::string> notes;
  std::vector<Comparison> rows;
  bool per_device = false;  // a report has several devices: the rows name theirs
  int regressions() const;  // SLOWER rows plus correctness regressions
};

// Throws UsageError when the reports cannot be compared (different devices without
// allow_device_mismatch; UUIDs asked of a report without them; two results of one report on the
// same key, as a merged report of several hosts has under index matching).
CompareOutcome compare_reports(const ReportSummary& base, const ReportSummary& fresh,
                               const CompareSettings& settings);

Verdict decide(const RatioInterval& ratio, double p_value, const CompareSettings& settings);

}  // namespace mish
