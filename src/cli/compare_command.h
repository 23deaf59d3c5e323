// The `compare` subcommand's flags and its run.
#pragma once
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "compare/compare.h"

namespace mish {

struct CompareFlags {
  std::string base_path, new_path;
  std::optional<std::string> json_path;      // machine-readable result
  std::optional<std::string> markdown_path;  // copy of the Markdown table (a CI job summary)
  // As typed: parsed strictly (common/decimal.h) by run_compare, so that the message is ours.
  std::optional<std::string> threshold, alpha;
  bool allow_device_mismatch = false;
  std::optional<std::string> match_devices;  // "index" or "uuid"
  // Comma lists of backends whose MISSING/SKIPPED/UNTIMED or BROKEN rows do not fail the gate.
  std::vector<std::string> allow_missing, allow_broken;
};

CLI::App* add_compare_command(CLI::App& app, CompareFlags& flags);

// Prints the Markdown table; returns 0 (no regression), 1 (regression), 2 (unusable input or
// flags) or 3 (an output could not be written, out of memory). Every failure is one line on
// stderr; no exception leaves it.
int run_compare(const CompareFlags& flags);

}  // namespace mish
