// `mishbench merge A.json B.json ...`: reports of several nodes (or runs) as one report, for a
// fleet view. Each result keeps its device and host: the inputs' hosts, devices and results are
// put one after another, and every index that refers to a host or a device is shifted to match.
// Every input is untrusted: read and checked as compare reads reports
// (reports/compare/report_input.h), and what merge rewrites is checked before it is touched. Merge
// refuses what would not mean one thing: reports of another schema version than this build's
// (older ones do not say which device each result ran on), reports of different problems, or with
// different settings of the measurement (those the settings table marks must_agree_to_merge), and
// a device (by UUID) that appears twice. Rules in docs/report-schema.md#merged-reports.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mish {

struct MergeInput {
  std::string label;      // the path, as given
  nlohmann::json report;  // passed check_report
};

// The merged report: schema kSchemaVersion, this tool's `tool`, `argv` and a new timestamp; the
// first input's settings and problems. Throws UsageError "'<label>': <what is wrong>".
nlohmann::json merge_reports(const std::vector<MergeInput>& inputs,
                             const std::vector<std::string>& argv);

}  // namespace mish
