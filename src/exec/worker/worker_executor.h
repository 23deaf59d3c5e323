// Runs a backend in a worker process of its own (--isolate): a fresh CUDA context, the run's
// buffers shared into it, every step a request under a watchdog. The worker is started on first
// use and again, for the next problem, after a failure killed it.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/timing/sampling.h"
#include "exec/executor/executor.h"
#include "settings/worker_limits.h"

namespace mish {

// What a worker needs to make and run the backend.
struct WorkerLaunch {
  std::vector<std::string> argv;  // the worker program and its arguments
  std::string backend;            // the backend's name in the worker's table
  nlohmann::json options = nlohmann::json::object();
  ExecutorSettings settings;
  WorkerLimits limits;
  int device = 0;  // the CUDA device index a device backend runs on, the parent's buffers' device
};

std::unique_ptr<Executor> make_worker_executor(WorkerLaunch launch);

}  // namespace mish
