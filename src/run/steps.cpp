#include "run/steps.h"

#include <fmt/format.h>

#include "cuda/cuda_check.cuh"
#include "dump/dump.h"
#include "progress/progress.h"
#include "timing/graph.h"
#include "verify/explain.h"

namespace mish {
namespace {

void add_warnings(StepContext& c, const std::string& label, const TimedSeries& series) {
  for (std::string& warning : series_warnings(label, series, c.config.sampling)) {
    if (!c.config.quiet) fmt::print(stderr, "warning: {}\n", warning);
    c.result.warnings.push_back(std::move(warning));
  }
}

TimedSeries time_series(StepContext& c, const std::string& label, const Series& series) {
  ProgressBar progress(fmt::format("{}: timing", label), !c.config.quiet);
  Sampling sampling = c.executor.sample(series, c.config.sampling,
                                        [&](double done) { progress.update(done); });
  return make_series(std::move(sampling), c.with_clocks);
}

// Poisons y, runs `series` once, reads y back and verifies every element. A failure marks the
// result a mismatch, its reason prefixed by `what`.
Verification verify_series(StepContext& c, const Series& series, const std::string& what) {
  c.buffers.poison_output();
  c.executor.run_once(series);
  c.buffers.read_output(c.y);
  const Problem& p = c.data.problem;
  const HostInputs& in = c.data.inputs;
  Verification v = verify(c.y.data(), c.data.reference.data(), p.m, p.n, c.config.tolerance);
  if (v.worst.row >= 0)
    v.worst.input_magnitude = input_magnitude(in.x.data(), in.w.data(), in.b.data(), p.k,
                                              v.worst.row, v.worst.col);
  if (!v.passed() && c.result.status != Status::mismatch) {
    c.result.status = Status::mismatch;
    c.result.reason = what + explain_mismatch(v, c.config.tolerance, p.k);
    if (c.config.dump_dir.empty())
      c.result.reason += "; rerun with --dump DIR to get the tensors as .npy";
  }
  return v;
}

}  // namespace

bool check_support(StepContext& c) {
  const Support support = c.executor.supports(c.data.problem, c.device);
  if (!support.ok) {
    c.result.status = Status::skipped;
    c.result.reason = support.reason;
  }
  return support.ok;
}

void set_up(StepContext& c) {
  const SetupReport report = c.executor.setup(c.data.problem, c.buffers);
  c.result.setup_ms = report.setup_ms;
  for (const StageInfo& stage : report.stages)
    c.result.stages.push_back({stage.name, stage.kind, stage.bytes, {}});
  if (report.prepacks_weights) c.result.prepack_ms = 0.0;  // filled in by time_prepack
}

void time_prepack(StepContext& c) {
  if (c.result.prepack_ms) c.result.prepack_ms = c.executor.time_prepack();
}

void verify_output(StepContext& c) {
  c.result.verification = verify_series(c, Series{}, "");
}

void dump_output(StepContext& c) {
  if (!c.config.dump_dir.empty())
    dump_array(c.config.dump_dir, c.data.problem, "y_" + c.result.backend, c.y);
}

void time_forward_pass(StepContext& c) {
  static_cast<TimedSeries&>(c.result) = time_series(c, c.result.backend, Series{});
  add_warnings(c, c.result.backend, c.result);
}

// A stage run alone leaves y in a state no check expects; the graph step poisons and rewrites all
// of y before it verifies.
void time_stages(StepContext& c) {
  for (size_t i = 0; i < c.result.stages.size(); ++i) {
    StageResult& stage = c.result.stages[i];
    const std::string label = fmt::format("{}/{}", c.result.backend, stage.name);
    stage.timing = time_series(c, label, {Series::Kind::stage, i});
    add_warnings(c, label, stage.timing);
  }
}

// Captures one forward pass, verifies a replay's output, then times replays. A capture failure is
// this backend's error; the plain timing already taken stays in the report.
void time_graph(StepContext& c) {
  try {
    c.result.graph_nodes = c.executor.capture_graph();
    const Series replay{Series::Kind::graph, 0};
    c.result.graph_verification = verify_series(c, replay, "CUDA graph replay: ");
    const std::string label = c.result.backend + " graph";
    c.result.graph = time_series(c, label, replay);
    add_warnings(c, label, *c.result.graph);
  } catch (const GraphCaptureError& error) {
    c.result.status = Status::error;
    c.result.reason = error.what();
  }
}

BackendResult run_steps(const RunConfig& config, const ProblemData& data, const DeviceInfo* device,
                        bool with_clocks, ProblemBuffers& buffers, Executor& executor,
                        const BackendInfo& info) {
  BackendResult result;
  result.backend = info.name;
  result.math_mode = info.math_mode;
  result.expected_accuracy = info.accuracy;
  const bool clocks = with_clocks && info.placement == Placement::device;
  StepContext c{config, data, device, clocks, buffers, executor, result, {}};
  try {
    if (!check_support(c)) return result;
    set_up(c);
    time_prepack(c);
    verify_output(c);
    dump_output(c);
    time_forward_pass(c);
    time_stages(c);
    if (config.graph && info.placement == Placement::device) time_graph(c);
    result.details = executor.describe();
  } catch (const CudaError& error) {
    result.status = Status::error;
    result.reason = error.out_of_memory() ? fmt::format("out of device memory: {}", error.what())
                                          : error.what();
    cudaGetLastError();  // clear a non-sticky error so the next backend starts clean
  } catch (const std::exception& error) {
    result.status = Status::error;
    result.reason = error.what();
  }
  return result;
}

}  // namespace mish
