// The flags and outputs that `compare` and `ab` share: the decision rule, the allow-lists, and
// where the verdicts go (the Markdown table on stdout, --markdown, --json).
#pragma once
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "reports/compare/compare.h"

namespace mish {

struct GateFlags {
  std::optional<std::string> json_path;      // machine-readable result
  std::optional<std::string> markdown_path;  // copy of the Markdown table (a CI job summary)
  // As typed: parsed strictly (base/common/decimal.h), so that the message is ours.
  std::optional<std::string> threshold, alpha;
  // Comma lists of backends whose MISSING/SKIPPED/UNTIMED or BROKEN rows do not fail the gate.
  std::vector<std::string> allow_missing, allow_broken;
  bool allow_shared_gpu = false;
};

void add_gate_flags(CLI::App& command, GateFlags& flags);

// The decision rule and allow-lists of the flags; throws UsageError for a bad value.
CompareSettings gate_settings(const GateFlags& flags);

// Before any work: an output that cannot be written, that is one of `inputs`, or that names the
// same file for both flags, is refused (UsageError).
void check_gate_outputs(const GateFlags& flags, const std::vector<std::string>& inputs);

// Prints the Markdown table, appends it to --markdown and writes `json` to --json; returns 1
// when a row fails the gate, else 0.
int publish_gate(const CompareOutcome& outcome, const CompareSettings& settings,
                 const GateFlags& flags, const nlohmann::json& json);

}  // namespace mish
