#include "run/steps.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "cuda/cuda_check.cuh"
#include "dump/dump.h"
#include "progress/progress.h"
#include "run/tenant_watch.h"
#include "timing/graph.h"
#include "verify/explain.h"

namespace mish {
namespace {

// The audit runs a series back to back for about this long (within its iteration limits).
constexpr double kAuditTargetMs = 50.0;
constexpr int kAuditMinIterations = 3;
constexpr int kAuditMaxIterations = 200;

void warn(StepContext& c, std::string warning) {
  if (!c.env.config.quiet) fmt::print(stderr, "{}warning: {}\n", c.env.label, warning);
  c.result.warnings.push_back(std::move(warning));
}

void add_warnings(StepContext& c, const std::string& label, const TimedSeries& series) {
  for (std::string& warning : series_warnings(label, series, c.env.config.sampling))
    warn(c, std::move(warning));
}

// Records a failure: the first sets the status and the reason; a later one is added to the
// reason, and an error outranks a mismatch.
void fail(StepContext& c, Status status, std::string reason) {
  BackendResult& r = c.result;
  if (r.status == Status::ok) {
    r.status = status;
    r.reason = std::move(reason);
    return;
  }
  if (status == Status::error) r.status = Status::error;
  r.reason += "; " + reason;
}

void note_other_processes(StepContext& c, const std::string& label,
                          const std::vector<OtherProcess>& seen) {
  if (seen.empty()) return;
  std::vector<std::string> names;
  for (const OtherProcess& p : seen) {
    names.push_back(fmt::format("pid {} ({})", p.pid, p.name.empty() ? "name not visible" : p.name));
    const auto known = std::find_if(c.result.other_processes.begin(), c.result.other_processes.end(),
                                    [&](const OtherProcess& q) { return q.pid == p.pid; });
    if (known == c.result.other_processes.end()) c.result.other_processes.push_back(p);
  }
  warn(c, fmt::format("{}: other processes held a CUDA context on the GPU while samples were "
                      "taken: {}; the timings may be skewed",
                      label, fmt::join(names, ", ")));
}

// The events of a series checked against the wall clock between two device synchronizations.
// A refused audit makes the backend an error and drops the series' figures.
bool audit_series(StepContext& c, const std::string& label, const Series& series,
                  const TimedSeries& timed) {
  if (!c.on_device || timed.stats.count == 0) return true;
  const double median = std::max(timed.stats.median, 1e-3);
  const int iterations = static_cast<int>(std::clamp(std::ceil(kAuditTargetMs / median),
                                                     double(kAuditMinIterations),
                                                     double(kAuditMaxIterations)));
  const auto refuses = [](const AuditReading& r) {
    return r.wall_ms - r.events_ms > kAuditMargin * r.wall_ms + kAuditSlackMs;
  };
  // A host delay (the tool's thread preempted, say) lands in one reading's wall time; work
  // outside the timed stream lands in every reading. So a refused reading is taken again.
  TimingAudit audit{label, c.executor.audit(series, iterations), false};
  for (int attempt = 1; attempt < kAuditAttempts && refuses(audit.reading); ++attempt)
    audit.reading = c.executor.audit(series, iterations);
  audit.refused = refuses(audit.reading);
  const AuditReading& r = audit.reading;
  c.result.timing_audits.push_back(audit);
  if (audit.refused)
    fail(c, Status::error,
         fmt::format("{}: timing refused: over {} back-to-back runs the timed stream's events "
                     "saw {:.3f} ms of {:.3f} ms of device-synchronized wall time; the backend "
                     "does work the events do not see (another stream, or the host)",
                     label, r.iterations, r.events_ms, r.wall_ms));
  return !audit.refused;
}

TimedSeries time_series(StepContext& c, const std::string& label, const Series& series) {
  ProgressBar progress(fmt::format("{}: timing", label), c.env.progress && !c.env.config.quiet);
  TenantWatch watch(c.on_device ? c.env.monitor : nullptr, c.env.own_pids());
  Sampling sampling = c.executor.sample(series, c.env.config.sampling,
                                        [&](double done) { progress.update(done); });
  note_other_processes(c, label, watch.finish());
  TimedSeries timed = make_series(std::move(sampling), c.on_device && c.env.monitor != nullptr);
  if (!audit_series(c, label, series, timed)) return {};
  add_warnings(c, label, timed);
  return timed;
}

// Poisons y, runs `series` once, reads y back and verifies every element against `data`'s
// reference. A failure marks the result a mismatch, its reason prefixed by `what`.
Verification verify_series(StepContext& c, const Series& series, const ProblemData& data,
                           const std::string& what) {
  c.buffers.poison_output();
  c.executor.run_once(series);
  c.buffers.read_output(c.y);
  const Problem& p = data.problem;
  const HostInputs& in = data.inputs;
  const Tolerance& tolerance = c.env.config.tolerance;
  Verification v = verify(c.y.data(), data.reference.data(), p.m, p.n, tolerance);
  if (v.worst.row >= 0)
    v.worst.input_magnitude = input_magnitude(in.x.data(), in.w.data(), in.b.data(), p.k,
                                              v.worst.row, v.worst.col);
  if (!v.passed() && c.result.status != Status::mismatch) {
    std::string reason = what + explain_mismatch(v, tolerance, p.k);
    if (c.env.config.dump_dir.empty()) reason += "; rerun with --dump DIR to get the tensors as .npy";
    fail(c, Status::mismatch, std::move(reason));
  }
  return v;
}

}  // namespace

bool check_support(StepContext& c) {
  const Support support = c.executor.supports(c.env.data.problem, c.env.device);
  if (!support.ok) {
    c.result.status = Status::skipped;
    c.result.reason = support.reason;
  }
  return support.ok;
}

void set_up(StepContext& c) {
  const SetupReport report = c.executor.setup(c.env.data.problem, c.buffers);
  c.result.setup_ms = report.setup_ms;
  for (const StageInfo& stage : report.stages)
    c.result.stages.push_back({stage.name, stage.kind, stage.bytes, {}});
  if (report.prepacks_weights) c.result.prepack_ms = 0.0;  // filled in by time_prepack
}

void time_prepack(StepContext& c) {
  if (c.result.prepack_ms) c.result.prepack_ms = c.executor.time_prepack();
}

void verify_output(StepContext& c) {
  c.result.verification = verify_series(c, Series{}, c.env.data, "");
}

void dump_output(StepContext& c) {
  if (!c.env.config.dump_dir.empty())
    dump_array(c.env.config.dump_dir, c.env.data.problem,
               "y_" + c.result.backend + c.env.dump_suffix, c.y);
}

void time_forward_pass(StepContext& c) {
  static_cast<TimedSeries&>(c.result) = time_series(c, c.result.backend, Series{});
}

// After the timed series, new x in the same buffers: an output that does not follow (a cached or
// replayed answer) fails. The problem's own x is back in place whatever happens.
void verify_fresh_input(StepContext& c) {
  if (c.result.status != Status::ok) return;
  check_inputs(c);  // before x is swapped out, which would hide a write into it
  if (c.result.status != Status::ok) return;
  const ProblemData& fresh = c.env.fresh();
  c.buffers.load_x(fresh.inputs.x);
  try {
    c.result.fresh_input_verification = verify_series(
        c, Series{}, fresh,
        "after the timed series, with new x in the same buffers, the output no longer matched "
        "(a cached or replayed output?): ");
  } catch (...) {
    c.buffers.load_x(c.env.data.inputs.x);
    throw;
  }
  c.buffers.load_x(c.env.data.inputs.x);
}

// A stage run alone leaves y in a state no check expects; the graph step poisons and rewrites all
// of y before it verifies.
void time_stages(StepContext& c) {
  for (size_t i = 0; i < c.result.stages.size(); ++i) {
    StageResult& stage = c.result.stages[i];
    stage.timing = time_series(c, fmt::format("{}/{}", c.result.backend, stage.name),
                               {Series::Kind::stage, i});
  }
}

// Captures one forward pass, verifies a replay's output, then times replays. A capture failure is
// this backend's error; the plain timing already taken stays in the report.
void time_graph(StepContext& c) {
  try {
    c.result.graph_nodes = c.executor.capture_graph();
    const Series replay{Series::Kind::graph, 0};
    c.result.graph_verification = verify_series(c, replay, c.env.data, "CUDA graph replay: ");
    TimedSeries timed = time_series(c, c.result.backend + " graph", replay);
    if (timed.stats.count > 0) c.result.graph = std::move(timed);
  } catch (const GraphCaptureError& error) {
    fail(c, Status::error, error.what());
  }
}

void check_inputs(StepContext& c) {
  const std::vector<InputChange> changes = c.buffers.changed_inputs(c.env.data.inputs);
  if (changes.empty()) return;
  c.buffers.restore_inputs(c.env.data.inputs);
  std::vector<std::string> parts;
  for (const InputChange& change : changes)
    parts.push_back(fmt::format("{} ({} of {} elements changed, the first at index {})",
                                change.tensor, change.changed, change.count, change.first));
  c.result.inputs_changed = changes;
  fail(c, Status::mismatch,
       fmt::format("wrote into its input{} {}", changes.size() == 1 ? "" : "s",
                   fmt::join(parts, ", ")));
}

BackendResult run_steps(const StepEnv& env, ProblemBuffers& buffers, Executor& executor,
                        const BackendInfo& info) {
  BackendResult result;
  result.backend = info.name;
  result.math_mode = info.math_mode;
  result.expected_accuracy = info.accuracy;
  result.origin = info.origin;
  StepContext c{env, buffers, executor, result, info.placement == Placement::device, {}};
  const auto record = [&](const std::exception& error) {
    const auto* cuda = dynamic_cast<const CudaError*>(&error);
    fail(c, Status::error,
         cuda != nullptr && cuda->out_of_memory()
             ? fmt::format("out of device memory: {}", error.what())
             : error.what());
    if (cuda != nullptr) cudaGetLastError();  // clear a non-sticky error for the next backend
  };
  bool supported = false;
  try {
    supported = check_support(c);
    if (supported) {
      set_up(c);
      time_prepack(c);
      verify_output(c);
      dump_output(c);
      time_forward_pass(c);
      verify_fresh_input(c);
      time_stages(c);
      if (env.config.graph && c.on_device) time_graph(c);
      result.details = executor.describe();
    }
  } catch (const std::exception& error) {
    record(error);
  }
  if (supported) {
    try {
      check_inputs(c);
    } catch (const std::exception& error) {
      record(error);
    }
  }
  result.isolation = executor.isolation();
  return result;
}

}  // namespace mish
