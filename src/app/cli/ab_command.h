// The `ab` subcommand: an interleaved A/B gate of two builds on one machine (docs/compare.md).
#pragma once
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "app/cli/gate_flags.h"

namespace mish {

struct AbFlags {
  std::optional<std::string> base, fresh;                // two mishbench binaries
  std::optional<std::string> base_plugin, new_plugin;    // or two plugin libraries
  std::vector<std::string> base_args, new_args;          // arguments of one build only
  std::optional<std::string> rounds, max_rounds;         // as typed, parsed by run_ab_command
  std::optional<std::string> rounds_dir;                 // keep the rounds' reports there
  std::vector<std::string> run_args;                     // after `--`: for both builds
  GateFlags gate;
};

CLI::App* add_ab_command(CLI::App& app, AbFlags& flags);

// Prints the Markdown table; returns 0 (the gate passes), 1 (a row fails), 2 (bad flags, a
// round's arguments refused, reports that cannot be compared) or 3 (a round could not run, an
// output could not be written). Every failure is one line on stderr.
int run_ab_command(const AbFlags& flags);

}  // namespace mish
