// Which backends a worker program serves, asked of a worker started for that alone: how the
// tool learns the backends of a plugin or a solution without running their code itself.
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include "core/outcome/backend_info.h"

namespace mish {

// Starts `argv`, asks it {"op": "hello"} (`during` names that step in messages) and lets it exit.
// Throws what WorkerProcess::request throws: UsageError for a table the worker refused,
// BackendError for a worker that died, went silent past `limit` or could not start.
std::vector<BackendInfo> probe_worker_backends(const std::vector<std::string>& argv,
                                               const std::string& label,
                                               const std::string& during,
                                               std::chrono::seconds limit);

}  // namespace mish
