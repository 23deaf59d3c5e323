// The run's table: the built-in backends, then the backends of every plugin library and solution
// file the run names, each marked to run in the tool's process or in a worker process of its own
// as --isolate says (solutions always in a worker). Plugins are loaded by a worker first, so a
// library that crashes while loading cannot take the tool down.
#pragma once
#include "backends/builtin/registry.h"
#include "settings/run_config.h"

namespace mish {

// Which shipped solutions (torch-eager, torch-compile) join the table: those the run's --backend
// names, or all of them (--list-backends).
enum class ShippedSolutions { named, all };

// Throws UsageError (exit 2) for a library that cannot be loaded or checked, a solution path that
// is not a file, or a backend whose name is already taken (a built-in's, another plugin's).
BackendTable build_backend_table(const RunConfig& config,
                                 ShippedSolutions shipped = ShippedSolutions::named);

// The names of the shipped solutions (torch-eager, torch-compile), which --backend may name
// although a table that it does not name leaves them out.
std::vector<std::string> shipped_solution_names();

// Marks every built-in backend of `table` to run in a worker process of its own (what
// --isolate=all does, and what a run on several devices does with every device backend).
void isolate_builtins(BackendTable& table);

}  // namespace mish
