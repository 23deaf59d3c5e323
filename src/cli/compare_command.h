// The `compare` subcommand's flags and its run.
#pragma once
#include <CLI/CLI.hpp>

#include <string>

#include "compare/compare.h"

namespace mish {

struct CompareFlags {
  std::string base_path, new_path;
  std::string json_path;      // optional machine-readable result
  std::string markdown_path;  // optional copy of the Markdown table (e.g. a CI job summary)
  CompareSettings settings;
};

CLI::App* add_compare_command(CLI::App& app, CompareFlags& flags);

// Prints the Markdown table; returns 0 (no regression), 1 (regression) or 2 (unusable input).
int run_compare(const CompareFlags& flags);

}  // namespace mish
