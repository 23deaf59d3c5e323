#include "run/in_process_executor.h"

#include <chrono>
#include <stdexcept>

#include "cuda/cuda_check.cuh"
#include "timing/statistics.h"

namespace mish {
namespace {

// Weight preparation is timed apart from the iterations: one warm-up, then the median of a few
// (the L2 mode is the run's, held by the timer). The last one leaves the prepared weights in
// place for run().
SampleSettings prepack_sampling() {
  SampleSettings settings;
  settings.warmup = 1;
  settings.iters = 5;
  return settings;
}

}  // namespace

InProcessExecutor::InProcessExecutor(std::unique_ptr<Backend> backend, const ExecutionEnv& env)
    : backend_(std::move(backend)), env_(env),
      on_host_(backend_->placement() == Placement::host) {}

Support InProcessExecutor::supports(const Problem& problem, const DeviceInfo* device) {
  return backend_->supports(problem, device);
}

SetupReport InProcessExecutor::setup(const Problem& problem, ProblemBuffers& buffers) {
  return setup_on(problem, buffers.tensors());
}

SetupReport InProcessExecutor::setup_on(const Problem& problem, const Tensors& tensors) {
  graph_.reset();
  tensors_ = tensors;
  SetupReport report;
  const auto start = std::chrono::steady_clock::now();
  backend_->setup(problem, tensors_, stream());
  if (!on_host_) MISH_CUDA_CHECK(cudaStreamSynchronize(stream()));
  report.setup_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  report.prepacks_weights = backend_->prepacks_weights();
  stages_ = backend_->stages();
  if (stages_.size() >= 2)
    for (const Stage& stage : stages_) report.stages.push_back({stage.name, stage.kind, stage.bytes});
  return report;
}

double InProcessExecutor::time_prepack() {
  const auto prepack = [&] { backend_->prepack(tensors_, stream()); };
  const Sampling sampling = on_host_ ? sample_host(prepack, prepack_sampling())
                                     : env_.timer->sample(prepack, prepack_sampling());
  return summarize(sampling.samples_ms).median;
}

void InProcessExecutor::run_once(const Series& series) {
  work(series)();
  backend_->write_output(tensors_, stream());
  if (!on_host_) MISH_CUDA_CHECK(cudaStreamSynchronize(stream()));
}

Sampling InProcessExecutor::sample(const Series& series, const SampleSettings& settings,
                                   const ProgressFn& on_progress) {
  const std::function<void()> enqueue = work(series);
  if (on_host_) return sample_host(enqueue, settings, on_progress);
  Sampling sampling = env_.timer->sample(enqueue, settings, on_progress);
  MISH_CUDA_CHECK(cudaGetLastError());
  return sampling;
}

AuditReading InProcessExecutor::audit(const Series& series, int iterations) {
  if (on_host_) throw std::logic_error("host backends are timed by wall clock: no audit");
  AuditReading reading = env_.timer->audit(work(series), iterations);
  MISH_CUDA_CHECK(cudaGetLastError());
  return reading;
}

size_t InProcessExecutor::capture_graph() {
  graph_.reset();
  graph_ = std::make_unique<CapturedGraph>(stream(), forward_pass());
  return graph_->node_count();
}

nlohmann::json InProcessExecutor::describe() { return backend_->describe(); }

std::function<void()> InProcessExecutor::forward_pass() {
  return [this] {
    if (env_.include_prepack) backend_->prepack(tensors_, stream());
    backend_->run(tensors_, stream());
  };
}

std::function<void()> InProcessExecutor::work(const Series& series) {
  switch (series.kind) {
    case Series::Kind::stage:
      return [this, &stage = stages_.at(series.stage)] { stage.enqueue(tensors_, stream()); };
    case Series::Kind::graph:
      return [this] { graph_->launch(stream()); };
    case Series::Kind::plain:
      break;
  }
  return forward_pass();
}

}  // namespace mish
