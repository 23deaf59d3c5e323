// How the report subcommands (`compare`, `merge`) end: every failure is one line on stderr,
// "mishbench <name>: ...", and an exit code (docs/cli.md); no exception leaves them.
#pragma once
#include <functional>
#include <string>

namespace mish {

struct SubcommandMessages {
  std::string name;           // "compare"
  std::string out_of_memory;  // the whole line for std::bad_alloc
  std::string printing;       // "cannot print the comparison": stdout closed or full
  std::string unexpected;     // "cannot compare these reports": an exception that is not ours
};

// Runs `body` (it returns the exit code), after installing the interrupt cleanup; a UsageError
// exits 2, an EnvironmentError, host memory running out (also where no handler can catch it:
// app/cli/out_of_memory.h) or stdout failing 3, anything else 2.
int run_reporting_failures(const SubcommandMessages& messages, const std::function<int()>& body);

}  // namespace mish
