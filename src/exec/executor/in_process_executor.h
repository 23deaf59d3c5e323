// Runs a backend in the calling process, on a given stream and timer: the tool's own process for
// built-ins (and plugins with --isolate=none), or a worker process serving the parent.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "core/timing/graph.h"
#include "exec/executor/call_hooks.h"
#include "exec/executor/executor.h"

namespace mish {

class InProcessExecutor final : public Executor {
 public:
  InProcessExecutor(std::unique_ptr<Backend> backend, const ExecutionEnv& env);

  Support supports(const Problem& problem, const DeviceInfo* device) override;
  SetupReport setup(const Problem& problem, ProblemBuffers& buffers) override;
  // setup() on tensors that live elsewhere (a worker's mapping of the parent's buffers).
  SetupReport setup_on(const Problem& problem, const Tensors& tensors, const OutputStore& store);
  double time_prepack() override;
  Sampling sample(const Series& series, const SampleSettings& settings, const CallPlan& plan,
                  const ProgressFn& on_progress) override;
  AuditReading audit(const Series& series, int iterations) override;
  size_t capture_graph() override;
  nlohmann::json describe() override;

 private:
  cudaStream_t stream() const { return env_.stream; }
  // One forward pass as the timed calls run it: [prepack,] run, write_output.
  std::function<void()> forward_pass();
  std::function<void()> work(const Series& series);
  // The backend's own work of a call around its timed part: the stages before and after a timed
  // stage (then write_output); nothing for a whole forward pass.
  std::function<void()> stages_between(size_t first, size_t last, bool then_write_output);
  Sampling sample_calls(const std::function<void()>& enqueue, const SampleSettings& settings,
                        const CallPlan& plan, PreparedCalls& calls, const ProgressFn& on_progress);

  std::unique_ptr<Backend> backend_;
  ExecutionEnv env_;
  bool on_host_;
  Problem problem_;
  Tensors tensors_;
  OutputStore store_;
  std::vector<Stage> stages_;
  std::unique_ptr<CapturedGraph> graph_;
};

}  // namespace mish
