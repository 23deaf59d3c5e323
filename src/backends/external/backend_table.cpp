#include "backends/external/backend_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "backends/external/solution_entries.h"
#include "backends/plugins/plugin_backend.h"
#include "backends/plugins/plugin_library.h"
#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/env/install_layout.h"
#include "exec/worker/probe.h"

namespace mish {
namespace {

void add_entry(BackendTable& table, BackendEntry entry, const std::string& source) {
  for (const BackendEntry& known : table)
    if (known.info.name == entry.info.name)
      throw UsageError(fmt::format(
          "{} has a backend named '{}', which {} already has; rename it (backend names must be "
          "unique in a run)",
          source, for_terminal(entry.info.name),
          known.info.origin.kind == "builtin" ? "a built-in backend"
                                              : fmt::format("'{}'", for_terminal(
                                                                        known.info.origin.path,
                                                                        kPathEchoLimit))));
  table.push_back(std::move(entry));
}

// The plugin's backends as a worker process loads them: the tool never runs the library's code.
std::vector<BackendInfo> probe_plugin(const std::string& path, const RunConfig& config) {
  const std::string shown = for_terminal(path, kPathEchoLimit);
  try {
    return probe_worker_backends({own_executable(), "worker", "--plugin", path}, path,
                                 "loading the plugin", config.worker_limits.setup);
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& error) {
    throw UsageError(fmt::format("plugin '{}' could not be loaded: {}", shown, error.what()));
  }
}

void add_plugin(BackendTable& table, const std::string& path, const RunConfig& config) {
  const std::string source = fmt::format("plugin '{}'", for_terminal(path, kPathEchoLimit));
  if (config.isolate == Isolation::none) {
    const std::shared_ptr<const PluginLibrary> library = load_plugin(path);
    for (size_t i = 0; i < library->backends().size(); ++i) {
      BackendEntry entry;
      entry.create = [library, i] { return make_plugin_backend(library, i); };
      entry.info = entry.create()->info();
      add_entry(table, std::move(entry), source);
    }
    return;
  }
  for (BackendInfo& info : probe_plugin(path, config)) {
    BackendEntry entry;
    entry.info = std::move(info);
    entry.isolated = true;
    entry.worker_argv = {own_executable(), "worker", "--plugin", path};
    add_entry(table, std::move(entry), source);
  }
}

// The solution files the run names (--solution), then the shipped ones `--backend` names (all of
// them for --list-backends).
void add_solutions(BackendTable& table, const RunConfig& config, ShippedSolutions shipped) {
  std::vector<std::string> files = config.solutions;
  for (const std::string& file : shipped_solutions(shipped_solutions_folder(), config.backends,
                                                   shipped == ShippedSolutions::all))
    files.push_back(file);
  if (files.empty()) return;
  const SolutionRuntime runtime = find_solution_runtime(config);
  for (const std::string& path : files) {
    const std::string source = fmt::format("solution '{}'", for_terminal(path, kPathEchoLimit));
    for (BackendEntry& entry : solution_entries(path, runtime, config))
      add_entry(table, std::move(entry), source);
  }
}

}  // namespace

std::vector<std::string> shipped_solution_names() {
  std::vector<std::string> names;
  for (const std::string& file : shipped_solutions(shipped_solutions_folder(), {}, true))
    names.push_back(std::filesystem::path(file).stem().string());
  return names;
}

void isolate_builtins(BackendTable& table) {
  for (BackendEntry& entry : table)
    if (!entry.isolated && entry.info.origin.kind == "builtin") {
      entry.isolated = true;
      entry.worker_argv = {own_executable(), "worker", "--builtin", entry.info.name};
    }
}

BackendTable build_backend_table(const RunConfig& config, ShippedSolutions shipped) {
  BackendTable table = builtin_backends();
  if (config.isolate == Isolation::all) isolate_builtins(table);
  for (const std::string& path : config.plugins) add_plugin(table, path, config);
  add_solutions(table, config, shipped);
  return table;
}

}  // namespace mish
