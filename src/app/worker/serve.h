// The worker's side: a loop that answers the tool's requests for one backend at a time, running
// its steps in this process (exec/executor/in_process_executor.h) on the tool's shared buffers. The same
// loop serves built-ins, plugin libraries and Python solutions (through the C entry point in
// app/worker/worker_library.cpp).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/outcome/backend_info.h"

namespace mish {

// The backends a worker can make.
struct WorkerBackends {
  std::vector<BackendInfo> infos;
  std::function<std::unique_ptr<Backend>(const std::string& name)> create;
};

// Serves the tool on `socket_fd` until it asks to exit or goes away; returns the process's exit
// status. `load` runs first; when it throws, every request is answered with its message.
int serve_worker(int socket_fd, const std::function<WorkerBackends()>& load);

}  // namespace mish
