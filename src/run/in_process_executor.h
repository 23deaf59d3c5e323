// Runs a backend in the calling process, on a given stream and timer: the tool's own process for
// built-ins (and plugins with --isolate=none), or a worker process serving the parent.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "run/executor.h"
#include "timing/graph.h"

namespace mish {

class InProcessExecutor final : public Executor {
 public:
  InProcessExecutor(std::unique_ptr<Backend> backend, const ExecutionEnv& env);

  Support supports(const Problem& problem, const DeviceInfo* device) override;
  SetupReport setup(const Problem& problem, ProblemBuffers& buffers) override;
  // setup() on tensors that live elsewhere (a worker's mapping of the parent's buffers).
  SetupReport setup_on(const Problem& problem, const Tensors& tensors);
  double time_prepack() override;
  void run_once(const Series& series) override;
  Sampling sample(const Series& series, const SampleSettings& settings,
                  const ProgressFn& on_progress) override;
  AuditReading audit(const Series& series, int iterations) override;
  size_t capture_graph() override;
  nlohmann::json describe() override;

 private:
  cudaStream_t stream() const { return env_.stream; }
  std::function<void()> forward_pass();  // one forward pass as the timed iterations run it
  std::function<void()> work(const Series& series);

  std::unique_ptr<Backend> backend_;
  ExecutionEnv env_;
  bool on_host_;
  Tensors tensors_;
  std::vector<Stage> stages_;
  std::unique_ptr<CapturedGraph> graph_;
};

}  // namespace mish
