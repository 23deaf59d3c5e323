// Runs a backend in a worker process of its own (--isolate): a fresh CUDA context, the run's
// buffers shared into it, every step a request under a watchdog. The worker is started on first
// use and again, for the next problem, after a failure killed it.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "outcome/outcome.h"
#include "run/executor.h"
#include "timing/sampling.h"
#include "worker/limits.h"
#include "worker/worker_process.h"

namespace mish {

// What a worker needs to make and run the backend.
struct WorkerLaunch {
  std::vector<std::string> argv;  // the worker program and its arguments
  std::string backend;            // the backend's name in the worker's table
  nlohmann::json options = nlohmann::json::object();
  L2Mode l2 = L2Mode::flush;
  bool include_prepack = false;
  WorkerLimits limits;
  int device = 0;  // the CUDA device index a device backend runs on, the parent's buffers' device
};

class WorkerExecutor final : public Executor {
 public:
  explicit WorkerExecutor(WorkerLaunch launch);

  Support supports(const Problem& problem, const DeviceInfo* device) override;
  SetupReport setup(const Problem& problem, ProblemBuffers& buffers) override;
  double time_prepack() override;
  void run_once(const Series& series) override;
  Sampling sample(const Series& series, const SampleSettings& settings,
                  const ProgressFn& on_progress) override;
  AuditReading audit(const Series& series, int iterations) override;
  size_t capture_graph() override;
  nlohmann::json describe() override;

  std::optional<IsolationReport> isolation() const override;
  std::vector<unsigned> pids() const override;

 private:
  WorkerProcess& worker();  // started (again) when needed
  nlohmann::json ask(const nlohmann::json& request, const std::string& during,
                     const ProgressFn& on_progress = {}, const std::vector<int>& fds = {});

  WorkerLaunch launch_;
  std::unique_ptr<WorkerProcess> process_;
  IsolationReport cost_;
};

}  // namespace mish
