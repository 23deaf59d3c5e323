// What running a Python solution takes (docs/solutions.md): an interpreter, the worker script and
// the worker library (the serve loop behind a C entry point), found relative to this program.
// In the build tree they sit beside it (build/libmishbench_worker.so, build/share/mishbench/);
// installed, in the prefix's lib/ and share/mishbench/.
#pragma once
#include <string>
#include <vector>

#include "settings/run_config.h"

namespace mish {

struct SolutionRuntime {
  std::string python;          // --python, or python3 from PATH ("python3" when it is not there)
  std::string worker_library;  // libmishbench_worker.so
  std::string worker_script;   // solution_worker.py

  // The worker of the solution file at `path`, named `default_name` unless the file declares
  // a name.
  std::vector<std::string> worker_argv(const std::string& path,
                                       const std::string& default_name) const;
};

// Throws UsageError for a --python that is not an executable file (or not on PATH), and
// EnvironmentError when the worker script or library is missing (a broken installation). A
// python3 missing from PATH is not an error here: each solution then fails to start, with the
// reason, like any worker that cannot start.
SolutionRuntime find_solution_runtime(const RunConfig& config);

// The folder of the shipped solutions (torch-eager.py, ...); empty when mishbench's data folder
// is missing.
std::string shipped_solutions_folder();

}  // namespace mish
