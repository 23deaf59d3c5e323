// The `merge` subcommand's flags and its run (reports/merge/merge.h).
#pragma once
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mish {

struct MergeFlags {
  std::vector<std::string> paths;        // the reports, in order
  std::optional<std::string> json_path;  // else the merged report goes to stdout
};

CLI::App* add_merge_command(CLI::App& app, MergeFlags& flags);

// Writes the merged report; returns 0, 2 (unusable input, flags or output path) or 3 (the output
// could not be written, out of memory). Every failure is one line on stderr; no exception leaves
// it. `argv`: the command line, recorded in the merged report.
int run_merge(const MergeFlags& flags, const std::vector<std::string>& argv);

}  // namespace mish
