// Python solution files as rows of the run's table (docs/solutions.md). A worker of the file
// reports its backend (name, placement, accuracy) by reading the file's declarations, without
// running any of its code; the backend always runs in a worker of its own. A file whose worker
// does not report it (its Python cannot run the worker, its declarations cannot be read) still
// gets its row, named after the file, marked unusable with the reason, with which it fails when
// it runs.
#pragma once
#include <string>
#include <vector>

#include "backends/builtin/registry.h"
#include "backends/external/solution_runtime.h"
#include "settings/run_config.h"

namespace mish {

// The name a solution gets unless it declares MISHBENCH_NAME: the file's stem in lower case,
// each character outside [a-z0-9._-] made '-', leading '.', '_', '-' dropped, at most 32
// characters ("solution" when nothing is left).
std::string default_solution_name(const std::string& path);

// The rows of the solution file at `path`. Throws UsageError for a path that is not a file and
// for a backend the tool refuses (a name that is not valid, for instance).
std::vector<BackendEntry> solution_entries(const std::string& path, const SolutionRuntime& runtime,
                                           const RunConfig& config);

// The shipped solutions in `folder` (torch-eager.py, torch-compile.py, ...), each a file named
// after its backend: the files of those among `names`, or every one when `every` is set.
std::vector<std::string> shipped_solutions(const std::string& folder,
                                           const std::vector<std::string>& names, bool every);

}  // namespace mish
