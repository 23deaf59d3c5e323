#include "exec/executor/in_process_executor.h"

#include <chrono>
#include <stdexcept>

#include "base/common/elapsed.h"
#include "base/cuda/cuda_check.cuh"
#include "core/timing/activity_recorder.h"
#include "core/timing/statistics.h"

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
  return setup_on(problem, buffers.tensors(), buffers.store());
}

SetupReport InProcessExecutor::setup_on(const Problem& problem, const Tensors& tensors,
                                        const OutputStore& store) {
  graph_.reset();
  problem_ = problem;
  tensors_ = tensors;
  store_ = store;
  SetupReport report;
  const auto start = std::chrono::steady_clock::now();
  backend_->setup(problem, tensors_, stream());
  if (!on_host_) MISH_CUDA_CHECK(cudaStreamSynchronize(stream()));
  report.setup_ms = elapsed_ms(start);
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

Sampling InProcessExecutor::sample(const Series& series, const SampleSettings& settings,
                                   const CallPlan& plan, const ProgressFn& on_progress) {
  std::function<void()> prefix, suffix;
  if (series.kind == Series::Kind::stage) {
    prefix = stages_between(0, series.stage, false);
    suffix = stages_between(series.stage + 1, stages_.size(), true);
  }
  PreparedCalls calls(problem_, tensors_, store_, plan, stream(), prefix, suffix);
  Sampling sampling = sample_calls(work(series), settings, plan, calls, on_progress);
  sampling.kept = calls.kept();
  return sampling;
}

Sampling InProcessExecutor::sample_calls(const std::function<void()>& enqueue,
                                         const SampleSettings& settings, const CallPlan& plan,
                                         PreparedCalls& calls, const ProgressFn& on_progress) {
  if (on_host_) return sample_host(enqueue, settings, on_progress, &calls);
  std::unique_ptr<ActivityRecorder> recorder;
  std::string why_not;
  if (plan.record_activity) recorder = ActivityRecorder::open(&why_not);
  if (recorder) recorder->start();
  Sampling sampling = env_.timer->sample(enqueue, settings, on_progress, &calls, recorder.get());
  MISH_CUDA_CHECK(cudaGetLastError());
  if (recorder) {
    sampling.activity = recorder->stop();
    sampling.timed_stream = recorder->stream_id(stream());
  } else if (plan.record_activity) {
    sampling.activity_note = why_not;
  }
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
    if (env_.settings.include_prepack) backend_->prepack(tensors_, stream());
    backend_->run(tensors_, stream());
    backend_->write_output(tensors_, stream());
  };
}

std::function<void()> InProcessExecutor::stages_between(size_t first, size_t last,
                                                        bool then_write_output) {
  return [this, first, last, then_write_output] {
    for (size_t i = first; i < last; ++i) stages_.at(i).enqueue(tensors_, stream());
    if (then_write_output) backend_->write_output(tensors_, stream());
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
