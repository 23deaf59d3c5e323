// The `compare` subcommand's flags and its run.
#pragma once
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "app/cli/gate_flags.h"

namespace mish {

struct CompareFlags {
  std::string base_path, new_path;
  bool allow_device_mismatch = false;
  std::optional<std::string> match_devices;  // "index" or "uuid"
  GateFlags gate;  // threshold, alpha, allow-lists, --json, --markdown
};

CLI::App* add_compare_command(CLI::App& app, CompareFlags& flags);

// Prints the Markdown table; returns 0 (no regression), 1 (a row fails the gate), 2 (unusable
// input or flags) or 3 (an output could not be written, out of memory). Every failure is one
// line on stderr; no exception leaves it.
int run_compare(const CompareFlags& flags);

}  // namespace mish
