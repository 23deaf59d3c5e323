// The run's table of backends: the built-ins, in a fixed order, and whatever joins them from
// outside the tool. A row holds what the table shows of a backend and how to make one.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend/backend.h"
#include "core/outcome/backend_info.h"

namespace mish {

struct BackendEntry {
  BackendInfo info;
  // A fresh, unconfigured backend in this process; empty for backends that only run in a worker.
  std::function<std::unique_ptr<Backend>()> create;
  bool isolated = false;                // run in a worker process (--isolate)
  std::vector<std::string> worker_argv;  // how to start that worker (it serves info.name)
  // Why the backend cannot run (a solution whose worker did not report it); it then fails at
  // setup with this reason. Empty for a backend that can.
  std::string unusable;
};
using BackendTable = std::vector<BackendEntry>;

// The built-in backends, in the order they run and are listed.
BackendTable builtin_backends();

// A built-in backend by name; throws UsageError for an unknown one.
std::unique_ptr<Backend> make_builtin_backend(std::string_view name);

std::vector<std::string> backend_names(const BackendTable& table);

// Resolves "all" (the table, in its order) or a list of names (in the order given) against
// `table`; throws UsageError on an unknown or repeated name, or "all" mixed with names. The
// message for an unknown name lists the table's names and `also_known` (names that join the
// table when --backend names them: the shipped solutions), with the closest one, if any.
BackendTable select_backends(const BackendTable& table, const std::vector<std::string>& requested,
                             const std::vector<std::string>& also_known = {});

// Checks {"name": {options}} against every backend of `table`, selected in this run or not:
// throws UsageError for an unknown backend name or an option the backend rejects (backends that
// exist only in a worker process check theirs at setup).
void check_backend_options(const BackendTable& table, const nlohmann::json& options,
                           const std::vector<std::string>& also_known = {});

// A backend of `entry`, made and given its options from {"name": {options}}.
std::unique_ptr<Backend> make_configured(const BackendEntry& entry, const nlohmann::json& options);

}  // namespace mish
