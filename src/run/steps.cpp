#include "run/steps.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/common/untrusted_text.h"
#include "base/cuda/cuda_check.cuh"
#include "base/progress/progress.h"
#include "core/dump/dump.h"
#include "core/timing/graph.h"
#include "core/timing/peaks.h"
#include "core/verify/explain.h"
#include "core/verify/plausibility.h"
#include "exec/executor/call_hooks.h"
#include "run/tenant_watch.h"

namespace mish {
namespace {

// The audit series runs calls for about this long (within its call limits).
constexpr double kAuditTargetMs = 50.0;
constexpr int kAuditMinCalls = 3;
constexpr int kAuditMaxCalls = 50;

// A backend's own warnings (its describe()'s "warnings"): how many are taken, and how much of each.
constexpr size_t kBackendWarningLimit = 8;
constexpr size_t kBackendWarningEchoLimit = 600;

void warn(StepContext& c, std::string warning) {
  if (!c.env.config.quiet) fmt::print(stderr, "{}warning: {}\n", c.env.label, warning);
  c.result.warnings.push_back(std::move(warning));
}

void add_warnings(StepContext& c, const std::string& label, const TimedSeries& series) {
  for (std::string& warning : series_warnings(label, series, c.env.config.sampling))
    warn(c, std::move(warning));
}

int rank(Status status) {
  switch (status) {
    case Status::mismatch: return 1;
    case Status::implausible: return 2;
    case Status::error: return 3;
    default: return 0;
  }
}

// Records a failure: the first sets the status and the reason; a later one is added to the
// reason, and the status becomes the gravest seen (error, then implausible, then mismatch).
void fail(StepContext& c, Status status, std::string reason) {
  BackendResult& r = c.result;
  if (r.status == Status::ok) {
    r.status = status;
    r.reason = std::move(reason);
    return;
  }
  if (rank(status) > rank(r.status)) r.status = status;
  r.reason += "; " + reason;
}

void note_other_processes(StepContext& c, const std::string& label,
                          const std::vector<OtherProcess>& seen) {
  if (seen.empty()) return;
  std::vector<std::string> names;
  for (const OtherProcess& p : seen) {
    names.push_back(process_label(p));
    const auto known = std::find_if(c.result.other_processes.begin(), c.result.other_processes.end(),
                                    [&](const OtherProcess& q) { return q.pid == p.pid; });
    if (known == c.result.other_processes.end()) c.result.other_processes.push_back(p);
  }
  c.result.shared_gpu = true;
  warn(c, fmt::format("{}: GPU shared with {} while samples were taken: the timings are "
                      "disturbed (compare will not gate on them)",
                      label, fmt::join(names, ", ")));
}

CallPlan next_plan(StepContext& c, bool main_x_first, bool record_activity) {
  CallPlan plan;
  plan.nonce = c.env.nonce;
  plan.first_call = c.next_call;
  plan.main_x_first = main_x_first;
  plan.record_activity = record_activity;
  return plan;
}

// Calls `series` as `plan` says; the call counter and the x left in the buffers follow.
Sampling make_calls(StepContext& c, const Series& series, const SampleSettings& settings,
                    const CallPlan& plan, const ProgressFn& on_progress) {
  Sampling sampling = c.executor.sample(series, settings, plan, on_progress);
  c.next_call += sampling.calls;
  if (sampling.calls > 0)
    c.last_x_seed = seed_of_call(c.env.data.problem, plan, sampling.calls - 1);
  return sampling;
}

// Which of two checked calls is further off: more mismatches, then more NaN/Inf, then a larger
// error.
bool worse(const Verification& a, const Verification& b) {
  if (a.mismatches != b.mismatches) return a.mismatches > b.mismatches;
  if (a.nonfinite != b.nonfinite) return a.nonfinite > b.nonfinite;
  return a.max_abs > b.max_abs;
}

// Checks the outputs the series kept; a failing call makes the result a mismatch, naming how
// many calls failed and the worst.
void check_calls(StepContext& c, const std::string& label, const CallPlan& plan,
                 const Sampling& sampling) {
  CallChecker& checker = c.env.checker(c.on_device);
  const Problem& p = c.env.data.problem;
  const Tolerance& tolerance = c.env.config.tolerance;
  CallsCheck check;
  check.series = label;
  check.calls = sampling.calls;
  check.reference = checker.reference_note();
  std::optional<uint64_t> worst_call;
  std::string diagnosis;  // the first a failed call's inputs gave (checks on the host give them)
  for (const KeptOutput& kept : sampling.kept) {
    const uint64_t index = kept.call - plan.first_call;
    const bool main_x = plan.main_x_first && index == 0;
    const Verification v = checker.check(c.buffers, kept.slot, seed_of_call(p, plan, index),
                                         main_x, tolerance, c.y);
    ++check.checked;
    if (!v.passed()) {
      ++check.failed;
      if (diagnosis.empty()) diagnosis = v.diagnosis;
      if (!check.first_failed || index < *check.first_failed) check.first_failed = index;
    }
    if (!check.worst || worse(v, *check.worst)) {
      check.worst = v;
      worst_call = index;
    }
  }
  if (check.failed > 0) {
    std::string reason = fmt::format(
        "{}: the output of {} of {} checked calls (of {} made) did not match; the worst, call "
        "{} ({}): {}",
        label, check.failed, check.checked, check.calls, *worst_call,
        plan.main_x_first && worst_call == 0u ? "the problem's own x" : "fresh x",
        explain_mismatch(*check.worst, tolerance, p.k));
    if (!diagnosis.empty()) reason += "; " + diagnosis;
    if (c.env.config.dump_dir.empty()) reason += "; rerun with --dump DIR to get the tensors as .npy";
    fail(c, Status::mismatch, std::move(reason));
  }
  c.result.call_checks.push_back(check);
}

// The kernel-level audit: every piece of the backend's GPU work in the audit series must lie
// inside a call's timed region; a piece outside is refused at any size, by name.
bool judge_kernels(StepContext& c, const std::string& label, const Sampling& audit) {
  const ActivityVerdict verdict = judge_activity(audit.activity, audit.timed_stream);
  TimingAudit record;
  record.series = label;
  record.mode = "kernels";
  record.calls = verdict.calls;
  record.records = verdict.backend_records;
  record.backend_gpu_ms = verdict.backend_gpu_ms;
  record.streams = verdict.streams;
  record.outside = verdict.outside;
  record.refused = verdict.refused();
  c.result.timing_audits.push_back(record);
  if (record.refused)
    fail(c, Status::error,
         fmt::format("{}: {}; enqueue all work on the stream the backend is given "
                     "(at::cuda::getCurrentCUDAStream() in a solution), or join its stream back "
                     "with an event before returning",
                     label, describe_outside(verdict)));
  return !record.refused;
}

// Where CUPTI cannot record: the events of back-to-back calls against device-synchronized wall
// time. A host delay lands in one reading, work outside the timed stream in every one, so a
// refused reading is taken again; with other processes on the GPU the gap is theirs to explain,
// and the figures are marked disturbed rather than refused.
bool judge_wall_time(StepContext& c, const std::string& label, const Series& series,
                     int iterations, const std::string& note) {
  const auto refuses = [](const AuditReading& r) {
    return r.wall_ms - r.events_ms > kAuditMargin * r.wall_ms + kAuditSlackMs;
  };
  TimingAudit audit;
  audit.series = label;
  audit.mode = "wall";
  audit.note = note;
  audit.reading = c.executor.audit(series, iterations);
  for (int attempt = 1; attempt < kAuditAttempts && refuses(audit.reading); ++attempt)
    audit.reading = c.executor.audit(series, iterations);
  const AuditReading& r = audit.reading;
  audit.refused = refuses(r) && !c.result.shared_gpu;
  c.result.timing_audits.push_back(audit);
  if (audit.refused)
    fail(c, Status::error,
         fmt::format("{}: timing refused: over {} back-to-back calls the timed stream's events "
                     "saw {:.3f} ms of {:.3f} ms of device-synchronized wall time: the backend "
                     "does work the events do not see (another stream, or the host); the "
                     "kernel-level audit could not run here ({})",
                     label, r.iterations, r.events_ms, r.wall_ms, note));
  return !audit.refused;
}

// An audit series: calls made like every other (fresh x, poisoned y, kept and checked), with
// every kernel, copy and memset recorded.
bool audit_series(StepContext& c, const std::string& label, const Series& series,
                  const TimedSeries& timed) {
  if (!c.on_device || timed.stats.count == 0) return true;
  const double median = std::max(timed.stats.median, 1e-3);
  const int calls = static_cast<int>(std::clamp(std::ceil(kAuditTargetMs / median),
                                                double(kAuditMinCalls), double(kAuditMaxCalls)));
  SampleSettings settings;
  settings.warmup = 0;
  settings.iters = calls;
  const CallPlan plan = next_plan(c, false, true);
  const Sampling audit = make_calls(c, series, settings, plan, {});
  check_calls(c, label + " audit", plan, audit);
  if (!audit.activity_note.empty()) return judge_wall_time(c, label, series, calls, audit.activity_note);
  return judge_kernels(c, label, audit);
}

TimedSeries time_series(StepContext& c, const std::string& label, const Series& series,
                        bool main_x_first, bool audited) {
  ProgressBar progress(fmt::format("{}: timing", label), c.env.progress && !c.env.config.quiet);
  TenantWatch watch(c.on_device ? c.env.monitor : nullptr, c.env.own_pids());
  const CallPlan plan = next_plan(c, main_x_first, false);
  Sampling sampling = make_calls(c, series, c.env.config.sampling, plan,
                                 [&](double done) { progress.update(done); });
  note_other_processes(c, label, watch.finish());
  check_calls(c, label, plan, sampling);
  TimedSeries timed = make_series(std::move(sampling), c.on_device && c.env.monitor != nullptr);
  if (audited && !audit_series(c, label, series, timed)) return {};
  add_warnings(c, label, timed);
  return timed;
}

// A median under the physical floor is implausible; one under the floor of the backend's own
// declared math mode draws a warning.
void check_plausibility(StepContext& c) {
  const DeviceRecord* device = c.env.record;
  if (!c.on_device || device == nullptr || c.result.stats.count == 0) return;
  const Problem& p = c.env.data.problem;
  const double read_gb_per_s = device->read_bandwidth ? device->read_bandwidth->gb_per_s : 0.0;
  const PhysicalFloor floor =
      physical_floor(p, device->info.name, read_gb_per_s, device->info.l2_bytes,
                     c.env.config.execution.l2 == L2Mode::hot);
  const double median = c.result.stats.median;
  if (median < kImplausibleMargin * floor.floor_ms())
    fail(c, Status::implausible,
         fmt::format("median {:.4f} ms is below the physical floor of {} ({:.1f}x faster than "
                     "the hardware allows): the work was not done while it was timed",
                     median, floor.describe(), floor.floor_ms() / median));
  const PeakLookup peak = peak_tflops(device->info.name, c.result.math_mode);
  if (!peak.tflops || read_gb_per_s <= 0) return;
  const double declared_ms =
      std::max(math_mode_passes(c.result.math_mode) * p.flops() / (*peak.tflops * 1e12),
               double(p.io_bytes()) / (read_gb_per_s * 1e9)) * 1e3;
  if (median < kImplausibleMargin * declared_ms)
    warn(c, fmt::format("{}: median {:.4f} ms is {:.2f}x the floor of its declared math mode "
                        "'{}' ({:.4f} ms): does it compute in the mode it declares?",
                        c.result.backend, median, median / declared_ms, c.result.math_mode,
                        declared_ms));
}

// The warnings a backend's describe() gives ("warnings": an array of strings; a solution's
// binding of W draws one), printed and kept as the tool's own, each after the backend's name.
void note_backend_warnings(StepContext& c) {
  const nlohmann::json& details = c.result.details;
  if (!details.is_object() || !details.contains("warnings") || !details["warnings"].is_array())
    return;
  size_t taken = 0;
  for (const nlohmann::json& warning : details["warnings"]) {
    if (!warning.is_string()) continue;
    if (++taken > kBackendWarningLimit) break;
    warn(c, fmt::format("{}: {}", for_terminal(c.result.backend),
                        for_terminal(warning.get<std::string>(), kBackendWarningEchoLimit)));
  }
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

void time_forward_pass(StepContext& c) {
  static_cast<TimedSeries&>(c.result) = time_series(c, c.result.backend, Series{}, true, true);
  if (!c.result.call_checks.empty()) c.result.verification = c.result.call_checks.front().worst;
  check_plausibility(c);
}

void dump_output(StepContext& c) {
  if (!c.env.config.dump_dir.empty() && !c.y.empty())
    dump_array(c.env.config.dump_dir, c.env.data.problem,
               "y_" + c.result.backend + c.env.dump_suffix, c.y);
}

// Each stage timed alone, the other stages run around it untimed in the same call, so every call
// still writes all of y and is checked.
void time_stages(StepContext& c) {
  for (size_t i = 0; i < c.result.stages.size(); ++i) {
    StageResult& stage = c.result.stages[i];
    stage.timing = time_series(c, fmt::format("{}/{}", c.result.backend, stage.name),
                               {Series::Kind::stage, i}, false, false);
  }
}

// Captures one forward pass, then times (and checks) its replays. A capture failure is this
// backend's error; the plain timing already taken stays in the report.
void time_graph(StepContext& c) {
  try {
    c.result.graph_nodes = c.executor.capture_graph();
    TimedSeries timed =
        time_series(c, c.result.backend + " graph", {Series::Kind::graph, 0}, false, true);
    for (const CallsCheck& check : c.result.call_checks)
      if (check.series == c.result.backend + " graph") c.result.graph_verification = check.worst;
    if (timed.stats.count > 0) c.result.graph = std::move(timed);
  } catch (const GraphCaptureError& error) {
    fail(c, Status::error, error.what());
  }
}

// W and b must be as generated, and x as the last call's preparation left it.
void check_inputs(StepContext& c) {
  const ProblemData& data = c.env.data;
  HostInputs expected;
  const HostInputs* inputs = &data.inputs;
  if (c.last_x_seed != data.problem.seed) {
    expected.x.resize(data.problem.x_count());
    draw_x_on_host(data.problem, c.last_x_seed, expected.x.data());
    expected.w = data.inputs.w;
    expected.b = data.inputs.b;
    inputs = &expected;
  }
  const std::vector<InputChange> changes = c.buffers.changed_inputs(*inputs);
  c.buffers.restore_inputs(data.inputs);
  c.last_x_seed = data.problem.seed;
  if (changes.empty()) return;
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
  StepContext c{env, buffers, executor, result, info.placement == Placement::device, {}, 0,
                env.data.problem.seed};
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
      time_forward_pass(c);
      dump_output(c);
      time_stages(c);
      if (env.config.graph && c.on_device) time_graph(c);
      result.details = executor.describe();
      note_backend_warnings(c);
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
