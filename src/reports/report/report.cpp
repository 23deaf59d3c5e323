#include "reports/report/report.h"

#include <fmt/format.h>

#include "base/common/version.h"
#include "base/io/output_file.h"
#include "core/problem/problem_json.h"
#include "core/timing/peaks.h"
#include "reports/report/figures.h"
#include "reports/report/node_summary.h"
#include "reports/report/timestamp.h"
#include "settings/settings.h"

namespace mish {
namespace {

using nlohmann::json;

json verification_json(const Verification& v) {
  return {{"checked", v.checked},
          {"mismatches", v.mismatches},
          {"nonfinite", v.nonfinite},
          {"max_abs", v.max_abs},
          {"max_rel", v.max_rel},
          {"worst", {{"row", v.worst.row}, {"col", v.worst.col}, {"got", v.worst.got},
                     {"expected", v.worst.expected},
                     {"input_magnitude", v.worst.input_magnitude}}}};
}

json clocks_json(const std::optional<ClockSummary>& clocks) {
  if (!clocks || clocks->readings == 0) return nullptr;
  return {{"readings", clocks->readings},
          {"sm_mhz_min", clocks->sm_mhz_min},
          {"sm_mhz_median", clocks->sm_mhz_median},
          {"sm_mhz_max", clocks->sm_mhz_max},
          {"throttled_samples", clocks->throttled_samples.size()},
          {"throttled_sample_indices", clocks->throttled_samples},
          {"throttle_reasons", throttle_reason_names(clocks->reasons_seen)},
          {"temperature_c_max", clocks->temperature_c_max ? json(*clocks->temperature_c_max) : json(nullptr)},
          {"power_w_max", clocks->power_w_max ? json(*clocks->power_w_max) : json(nullptr)}};
}

json timing_json(const TimedSeries& series) {
  const TimingStats& s = series.stats;
  return {{"samples_ms", series.samples_ms},
          {"count", s.count},
          {"median_ms", s.median},
          {"mean_ms", s.mean},
          {"min_ms", s.min},
          {"max_ms", s.max},
          {"stdev_ms", s.stdev},
          {"p5_ms", s.p5},
          {"p95_ms", s.p95},
          {"iqr_ms", s.iqr},
          {"median_ci95_ms", {s.ci_low, s.ci_high}},
          {"median_ci_coverage", s.ci_confidence},
          {"median_ci_relative_width", s.ci_relative_width()},
          {"mad_ms", s.mad},
          {"outliers", s.outliers},
          {"stopped_by", to_string(series.stopped_by)},
          {"gate_timeouts", series.gate_timeouts},
          {"clocks", clocks_json(series.clocks)}};
}

json stages_json(const Problem& p, const BackendResult& r, const std::optional<CopyBandwidth>& copy) {
  // A stage series is missing when a failure (or a refused audit) came first: then none counts.
  if (r.stages.empty() || r.stats.count == 0) return nullptr;
  for (const StageResult& stage : r.stages)
    if (stage.timing.stats.count == 0) return nullptr;
  json list = json::array();
  double sum_ms = 0.0;
  for (const StageResult& stage : r.stages) {
    json entry = {{"name", stage.name}, {"timing", timing_json(stage.timing)}};
    sum_ms += stage.timing.stats.median;
    if (stage.kind == StageKind::gemm) {
      entry["kind"] = "gemm";
      entry["tflops"] = tflops_at(p, stage.timing.stats.median);
    } else {
      entry["kind"] = "epilogue";
      entry["bytes"] = stage.bytes;
      entry["gb_per_s"] = stage_gb_per_s(stage);
      entry["fraction_of_copy_bandwidth"] =
          copy && copy->gb_per_s > 0 ? json(stage_gb_per_s(stage) / copy->gb_per_s) : json(nullptr);
    }
    list.push_back(entry);
  }
  return {{"stages", list}, {"sum_of_medians_ms", sum_ms}, {"whole_median_ms", r.stats.median}};
}

json roofline_json(const Problem& p, const BackendResult& r, const DeviceRecord* device) {
  if (device == nullptr || r.stats.count == 0) return nullptr;
  const PeakLookup peak = peak_tflops(device->info.name, r.math_mode);
  const Floors floors = floors_of(p, r.math_mode, device);
  const std::optional<double> floor = floors.floor_ms();
  return {{"unit", peak.unit},
          {"peak_tflops", peak.tflops ? json(*peak.tflops) : json(nullptr)},
          {"fraction", peak.tflops ? json(tflops(p, r) / *peak.tflops) : json(nullptr)},
          {"note", peak.note},
          {"passes", math_mode_passes(r.math_mode)},
          {"compute_floor_ms", floors.compute_ms ? json(*floors.compute_ms) : json(nullptr)},
          {"memory_floor_ms", floors.memory_ms ? json(*floors.memory_ms) : json(nullptr)},
          {"bound", floor ? json(floors.bound()) : json(nullptr)},
          {"multiple_of_floor", floor ? json(r.stats.median / *floor) : json(nullptr)}};
}

json origin_json(const BackendOrigin& origin) {
  json out = {{"kind", origin.kind},
              {"path", origin.path},
              {"sha256", origin.sha256},
              {"abi_version", origin.abi_version}};
  if (origin.kind == "plugin") out["build_info"] = origin.build_info;  // 1.5
  return out;
}

json isolation_json(const std::optional<IsolationReport>& isolation) {
  if (!isolation) return nullptr;
  return {{"worker_start_ms", isolation->start_ms},
          {"round_trip_ms", isolation->round_trip_ms},
          {"worker_starts", isolation->starts},
          {"output_tail", isolation->output}};
}

json calls_check_json(const CallsCheck& check) {
  return {{"series", check.series},
          {"calls", check.calls},
          {"checked", check.checked},
          {"failed", check.failed},
          {"first_failed_call", check.first_failed ? json(*check.first_failed) : json(nullptr)},
          {"reference", check.reference},
          {"worst", check.worst ? verification_json(*check.worst) : json(nullptr)}};
}

json audit_json(const TimingAudit& audit) {
  json outside = json::array();
  for (const OutsideWork& piece : audit.outside)
    outside.push_back({{"name", piece.name},
                       {"kind", to_string(piece.kind)},
                       {"stream", piece.stream},
                       {"ms", piece.ms_outside},
                       {"where", piece.where}});
  const bool kernels = audit.mode == "kernels";
  return {{"series", audit.series},
          {"mode", audit.mode},
          {"note", audit.note},
          {"calls", kernels ? json(audit.calls) : json(nullptr)},
          {"records", kernels ? json(audit.records) : json(nullptr)},
          {"backend_gpu_ms", kernels ? json(audit.backend_gpu_ms) : json(nullptr)},
          {"streams", audit.streams},
          {"outside", outside},
          {"iterations", kernels ? json(nullptr) : json(audit.reading.iterations)},
          {"events_ms", kernels ? json(nullptr) : json(audit.reading.events_ms)},
          {"wall_ms", kernels ? json(nullptr) : json(audit.reading.wall_ms)},
          {"refused", audit.refused}};
}

// The honesty checks' findings (docs/isolation.md).
json honesty_json(const BackendResult& r) {
  json checks = json::array();
  for (const CallsCheck& check : r.call_checks) checks.push_back(calls_check_json(check));
  json audits = json::array();
  for (const TimingAudit& audit : r.timing_audits) audits.push_back(audit_json(audit));
  json changed = json::array();
  for (const InputChange& change : r.inputs_changed)
    changed.push_back({{"tensor", change.tensor},
                       {"changed", change.changed},
                       {"count", change.count},
                       {"first_index", change.first}});
  json others = json::array();
  for (const OtherProcess& other : r.other_processes)
    others.push_back({{"pid", other.pid}, {"name", other.name}, {"used_bytes", other.used_bytes}});
  return {{"call_checks", checks},
          {"timing_audits", audits},
          {"inputs_changed", changed},
          {"other_processes", others},
          {"shared_gpu", r.shared_gpu}};
}


// One device of the run; `device` and each entry of `devices`.
json device_json(const DeviceRecord& record) {
  json device = to_json(record.info);
  if (record.copy_bandwidth)
    device["copy_bandwidth"] = {{"bytes_per_copy", record.copy_bandwidth->bytes_per_copy},
                                {"median_ms", record.copy_bandwidth->median_ms},
                                {"gb_per_s", record.copy_bandwidth->gb_per_s},
                                {"counts", "bytes read + bytes written"}};
  if (record.read_bandwidth)
    device["read_bandwidth"] = {{"bytes", record.read_bandwidth->bytes},
                                {"median_ms", record.read_bandwidth->median_ms},
                                {"gb_per_s", record.read_bandwidth->gb_per_s}};
  device["max_sm_clock_mhz"] = record.max_sm_mhz ? json(*record.max_sm_mhz) : json(nullptr);
  device["clocks_note"] = record.clocks_note;
  device["host_index"] = 0;  // the one host of a run (a merged report has several)
  return device;
}

json node_summary_json(const RunOutcome& outcome) {
  json rows = json::array();
  for (const NodeSummaryRow& row : summarize_node(device_timings(outcome))) {
    json devices = json::array();
    for (const DeviceStanding& d : row.devices)
      devices.push_back({{"device_index", d.timing.device},
                         {"median_ms", d.timing.median_ms},
                         {"median_ci95_ms", {d.timing.ci_low_ms, d.timing.ci_high_ms}},
                         {"ratio", d.ratio},
                         {"flag", to_string(d.deviation)},
                         {"samples", d.timing.samples},
                         {"throttled_samples", d.timing.throttled_samples},
                         {"throttle_reasons", d.timing.throttle_reasons}});
    rows.push_back({{"backend", row.backend},
                    {"problem", problem_json(outcome.runs.at(row.problem).problem)},
                    {"host_index", 0},
                    {"band", kNodeBand},
                    {"node_median_ms", row.node_median_ms},
                    {"devices", devices}});
  }
  return rows;
}

}  // namespace

json build_report(const RunOutcome& outcome, const RunConfig& config,
                  const std::vector<std::string>& argv) {
  json report;
  report["schema_version"] = kSchemaVersion;
  report["tool"] = {{"name", "mishbench"}, {"version", tool_version()}, {"git_sha", git_sha()}};
  report["argv"] = argv;
  report["timestamp"] = utc_timestamp();
  report["host"] = to_json(outcome.host);
  report["hosts"] = json::array({report["host"]});
  report["devices"] = json::array();
  for (const DeviceRecord& device : outcome.devices)
    report["devices"].push_back(device_json(device));
  // The first device, as reports before 1.3 name the one device they ran on.
  report["device"] = outcome.devices.empty() ? json(nullptr) : report["devices"][0];
  const DeviceRecord* first_device = outcome.devices.empty() ? nullptr : &outcome.devices[0];
  // Every reported setting from the settings table, plus what follows from them.
  json settings = settings_json(config);
  settings["l2_flush_bytes"] =
      first_device && config.execution.l2 == L2Mode::flush
          ? json(l2_flush_bytes(first_device->info.l2_bytes, config.execution.l2))
          : json(nullptr);
  settings["devices_parallel"] = outcome.devices_parallel;  // what ran: false with one device
  settings["stopping"] = config.sampling.adaptive() ? "adaptive" : "fixed";
  settings["median_ci"] = "95%, distribution-free: binomial order statistics";
  settings["outlier_rule"] = "|x - median| > 3.5 * 1.4826 * MAD";
  report["settings"] = settings;
  report["problems"] = json::array();
  report["results"] = json::array();
  for (const ProblemRun& run : outcome.runs) {
    json problem = problem_json(run.problem);
    problem["flops"] = run.problem.flops();
    problem["bytes"] = layer_bytes(run.problem);
    const Floors floors = floors_of(run.problem, "fp32", first_device);
    problem["memory_floor_ms"] = floors.memory_ms ? json(*floors.memory_ms) : json(nullptr);
    problem["generate_ms"] = run.generate_ms;
    problem["reference_ms"] = run.reference_ms;
    report["problems"].push_back(problem);
    for (const BackendResult& r : run.results) {
      const DeviceRecord* device = outcome.device_of(r);
      json entry = {{"backend", r.backend},
                    {"problem", problem_json(run.problem)},
                    {"device_index", r.device ? json(*r.device) : json(nullptr)},
                    {"host_index", 0},
                    {"status", to_string(r.status)},
                    {"reason", r.reason},
                    {"math_mode", r.math_mode},
                    {"expected_accuracy", to_string(r.expected_accuracy)},
                    {"details", r.details.is_null() ? json::object() : r.details},
                    {"setup_ms", r.setup_ms},
                    {"prepack_ms", r.prepack_ms ? json(*r.prepack_ms) : json(nullptr)}};
      if (r.stats.count > 0) {
        entry["timing"] = timing_json(r);
        entry["clocks"] = clocks_json(r.clocks);
        entry["tflops"] = tflops(run.problem, r);
        const double speedup = speedup_vs_separate(run, r);
        entry["speedup_vs_separate"] = speedup > 0 ? json(speedup) : json(nullptr);
      } else {
        entry["timing"] = nullptr;
        entry["tflops"] = nullptr;
        entry["speedup_vs_separate"] = nullptr;
        entry["clocks"] = nullptr;
      }
      entry["graph_timing"] = r.graph ? timing_json(*r.graph) : json(nullptr);
      entry["graph_tflops"] = r.graph ? json(tflops_at(run.problem, r.graph->stats.median)) : json(nullptr);
      entry["graph_nodes"] = r.graph ? json(r.graph_nodes) : json(nullptr);
      entry["graph_verification"] =
          r.graph_verification ? verification_json(*r.graph_verification) : json(nullptr);
      entry["stages"] = stages_json(run.problem, r, device ? device->copy_bandwidth : std::nullopt);
      entry["roofline"] = roofline_json(run.problem, r, device);
      entry["warnings"] = r.warnings;
      entry["verification"] = r.verification ? verification_json(*r.verification) : json(nullptr);
      entry["origin"] = origin_json(r.origin);
      entry["isolation"] = isolation_json(r.isolation);
      entry["honesty"] = honesty_json(r);
      report["results"].push_back(entry);
    }
  }
  report["node_summary"] = node_summary_json(outcome);
  report["merged_from"] = nullptr;  // a report of one run
  return report;
}

void write_json_atomically(const std::string& path, const json& document) {
  // Replacement characters for any byte that is not UTF-8 (a backend's message, say), rather
  // than losing the whole report to a dump error.
  write_output_file(path, "report",
                    document.dump(2, ' ', false, json::error_handler_t::replace) + '\n');
}

}  // namespace mish
