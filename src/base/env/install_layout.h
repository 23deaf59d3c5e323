// Where this program's own files are, found from its path. In the build tree the binary's data
// sits beside it (build/share/mishbench/: the solution worker); installed, under its prefix:
// bin/mishbench, lib/, include/mishbench/plugin.h and share/mishbench/ (the solution worker, and
// the configs, docs and scripts of the source tree, in folders of the same names).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace mish {

// This program's own path, to start workers of it. Throws EnvironmentError when it cannot tell.
std::string own_executable();

// Where the solution worker's library may be, and the data folder, in the order looked at: the
// build tree's place first, then the installation's.
std::vector<std::filesystem::path> library_folders();
std::vector<std::filesystem::path> data_folders();

// The first of `candidates` that exists, canonical; empty when none does.
std::string first_existing(const std::vector<std::filesystem::path>& candidates);

// `text` (a help text, a message) with each path of a file that mishbench ships written as this
// binary finds it: "configs/ci.json", "docs/methodology.md" or "scripts/plot.py" in the data
// folder, "include/mishbench/plugin.h" in the prefix, as an absolute path. A path it does not
// find stays as written: in the build tree those name the source tree's files.
std::string with_shipped_paths(const std::string& text);

}  // namespace mish
