#include "report/report.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "common/errors.h"
#include "common/version.h"
#include "io/output_file.h"
#include "timing/peaks.h"

namespace mish {
namespace {

using nlohmann::json;

std::string utc_timestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

json problem_json(const Problem& p) {
  return {{"m", p.m}, {"n", p.n}, {"k", p.k}, {"seed", p.seed},
          {"distribution", to_string(p.distribution)}};
}

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

double tflops_at(const Problem& p, double median_ms) {
  return median_ms > 0 ? p.flops() / (median_ms * 1e-3) / 1e12 : 0.0;
}

// A mismatch the backend's accuracy class predicts.
bool expected(const BackendResult& r) {
  return r.status == Status::mismatch && r.expected_accuracy == Accuracy::reduced;
}

double tflops(const Problem& p, const BackendResult& r) {
  return r.stats.count > 0 ? tflops_at(p, r.stats.median) : 0.0;
}

// Achieved GB/s of an epilogue stage from the least bytes it must move.
double stage_gb_per_s(const StageResult& stage) {
  return stage.timing.stats.median > 0 ? stage.bytes / (stage.timing.stats.median * 1e-3) / 1e9 : 0.0;
}

json stages_json(const Problem& p, const BackendResult& r, const std::optional<CopyBandwidth>& copy) {
  if (r.stages.empty()) return nullptr;
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

json roofline_json(const Problem& p, const BackendResult& r, const std::optional<DeviceInfo>& device) {
  if (!device || r.stats.count == 0) return nullptr;
  const PeakLookup peak = peak_tflops(device->name, r.math_mode);
  return {{"unit", peak.unit},
          {"peak_tflops", peak.tflops ? json(*peak.tflops) : json(nullptr)},
          {"fraction", peak.tflops ? json(tflops(p, r) / *peak.tflops) : json(nullptr)},
          {"note", peak.note}};
}

json device_json(const RunOutcome& outcome) {
  if (!outcome.device) return nullptr;
  json device = to_json(*outcome.device);
  if (outcome.copy_bandwidth)
    device["copy_bandwidth"] = {{"bytes_per_copy", outcome.copy_bandwidth->bytes_per_copy},
                                {"median_ms", outcome.copy_bandwidth->median_ms},
                                {"gb_per_s", outcome.copy_bandwidth->gb_per_s},
                                {"counts", "bytes read + bytes written"}};
  device["max_sm_clock_mhz"] = outcome.max_sm_mhz ? json(*outcome.max_sm_mhz) : json(nullptr);
  device["clocks_note"] = outcome.clocks_note;
  return device;
}

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

}  // namespace

double speedup_vs_separate(const ProblemRun& run, const BackendResult& result) {
  for (const BackendResult& other : run.results)
    if (other.backend == "separate" && other.stats.count > 0 && result.stats.count > 0)
      return other.stats.median / result.stats.median;
  return 0.0;
}

json build_report(const RunOutcome& outcome, const RunConfig& config,
                  const std::vector<std::string>& argv) {
  json report;
  report["schema_version"] = kSchemaVersion;
  report["tool"] = {{"name", "mishbench"}, {"version", tool_version()}, {"git_sha", git_sha()}};
  report["argv"] = argv;
  report["timestamp"] = utc_timestamp();
  report["host"] = to_json(outcome.host);
  report["device"] = device_json(outcome);
  const SampleSettings& sampling = config.sampling;
  const bool flush = sampling.l2 == L2Mode::flush;
  report["settings"] = {
      {"warmup", sampling.warmup},
      {"iters", sampling.iters},
      {"l2", to_string(sampling.l2)},
      {"l2_flush_bytes", flush && outcome.device ? json(2 * uint64_t(outcome.device->l2_bytes)) : json(nullptr)},
      {"graph", config.graph},
      {"stopping", sampling.adaptive() ? "adaptive" : "fixed"},
      {"min_time_s", optional_number(sampling.min_time_s)},
      {"max_noise", optional_number(sampling.max_noise)},
      {"timeout_s", optional_number(sampling.timeout_s)},
      {"median_ci", "95%, distribution-free: binomial order statistics"},
      {"outlier_rule", "|x - median| > 3.5 * 1.4826 * MAD"},
      {"atol", config.tolerance.atol},
      {"rtol", config.tolerance.rtol},
      {"include_prepack", config.include_prepack},
      {"backend_options", config.backend_options}};
  report["problems"] = json::array();
  report["results"] = json::array();
  for (const ProblemRun& run : outcome.runs) {
    json problem = problem_json(run.problem);
    problem["flops"] = run.problem.flops();
    problem["generate_ms"] = run.generate_ms;
    problem["reference_ms"] = run.reference_ms;
    report["problems"].push_back(problem);
    for (const BackendResult& r : run.results) {
      json entry = {{"backend", r.backend},
                    {"problem", problem_json(run.problem)},
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
      entry["stages"] = stages_json(run.problem, r, outcome.copy_bandwidth);
      entry["roofline"] = roofline_json(run.problem, r, outcome.device);
      entry["warnings"] = r.warnings;
      entry["verification"] = r.verification ? verification_json(*r.verification) : json(nullptr);
      report["results"].push_back(entry);
    }
  }
  return report;
}

void write_json_atomically(const std::string& path, const json& document) {
  // Replacement characters for any byte that is not UTF-8 (a backend's message, say), rather
  // than losing the whole report to a dump error.
  write_output_file(path, "report",
                    document.dump(2, ' ', false, json::error_handler_t::replace) + '\n');
}

namespace {

std::string percent_of_peak(const Problem& p, const BackendResult& r,
                            const std::optional<DeviceInfo>& device) {
  if (!device || r.stats.count == 0) return "-";
  const PeakLookup peak = peak_tflops(device->name, r.math_mode);
  return peak.tflops ? fmt::format("{:.0f}%", 100.0 * tflops(p, r) / *peak.tflops) : "-";
}

// The lines below the table: graph replays, stage breakdown and clocks, one backend at a time.
void print_timing_details(std::FILE* out, const Problem& p, const BackendResult& r,
                          const std::optional<CopyBandwidth>& copy) {
  if (r.graph)
    fmt::print(out, "  {:<10} graph     {:.4f} ms  {:.3g} TFLOP/s  (CI +-{:.2f}%, {} nodes)\n",
               r.backend, r.graph->stats.median, tflops_at(p, r.graph->stats.median),
               50.0 * r.graph->stats.ci_relative_width(), r.graph_nodes);
  if (!r.stages.empty()) {
    std::vector<std::string> parts;
    double sum_ms = 0.0;
    for (const StageResult& stage : r.stages) {
      sum_ms += stage.timing.stats.median;
      if (stage.kind == StageKind::gemm) {
        parts.push_back(fmt::format("{} {:.4f} ms {:.3g} TFLOP/s", stage.name,
                                    stage.timing.stats.median, tflops_at(p, stage.timing.stats.median)));
      } else {
        const double gbps = stage_gb_per_s(stage);
        parts.push_back(fmt::format(
            "{} {:.4f} ms {:.0f} GB/s{}", stage.name, stage.timing.stats.median, gbps,
            copy && copy->gb_per_s > 0 ? fmt::format(" ({:.0f}% of copy)", 100.0 * gbps / copy->gb_per_s)
                                       : ""));
      }
    }
    fmt::print(out, "  {:<10} stages    {} | sum {:.4f} ms vs whole {:.4f} ms\n", r.backend,
               fmt::join(parts, " | "), sum_ms, r.stats.median);
  }
  if (r.clocks && r.clocks->readings > 0)
    fmt::print(out, "  {:<10} clocks    SM {} MHz median ({}-{}), {} of {} samples throttled\n",
               r.backend, r.clocks->sm_mhz_median, r.clocks->sm_mhz_min, r.clocks->sm_mhz_max,
               r.clocks->throttled_samples.size(), r.stats.count);
}

}  // namespace

void print_table(std::FILE* out, const RunOutcome& outcome) {
  for (const ProblemRun& run : outcome.runs) {
    const Problem& p = run.problem;
    fmt::print(out, "\nproblem m={} n={} k={} ({}, seed {}), reference {:.0f} ms\n", p.m, p.n, p.k,
               to_string(p.distribution), p.seed, run.reference_ms);
    fmt::print(out, "{:<10} {:<9} {:>11} {:>8} {:>9} {:>6} {:>8} {:>12} {:>10}\n", "backend",
               "status", "median ms", "CI +-%", "TFLOP/s", "peak", "speedup", "max abs err",
               "mismatch");
    bool any_expected_mismatch = false;
    for (const BackendResult& r : run.results) {
      const bool timed = r.stats.count > 0;
      const double speedup = speedup_vs_separate(run, r);
      const bool expected_mismatch = expected(r);
      any_expected_mismatch |= expected_mismatch;
      fmt::print(out, "{:<10} {:<9} {:>11} {:>8} {:>9} {:>6} {:>8} {:>12} {:>10}\n", r.backend,
                 to_string(r.status) + (expected_mismatch ? "*" : ""),
                 timed ? fmt::format("{:.4f}", r.stats.median) : "-",
                 timed ? fmt::format("{:.2f}", 50.0 * r.stats.ci_relative_width()) : "-",
                 timed ? fmt::format("{:.3g}", tflops(p, r)) : "-",
                 percent_of_peak(p, r, outcome.device),
                 speedup > 0 ? fmt::format("{:.2f}x", speedup) : "-",
                 r.verification ? fmt::format("{:.2e}", r.verification->max_abs) : "-",
                 r.verification ? fmt::format("{}", r.verification->mismatches) : "-");
    }
    if (any_expected_mismatch)
      fmt::print(out, "  * expected: reduced precision (misses the tolerance by design; does not "
                      "fail the run)\n");
    for (const BackendResult& r : run.results) print_timing_details(out, p, r, outcome.copy_bandwidth);
    for (const BackendResult& r : run.results)
      if (r.status != Status::ok)
        fmt::print(out, "  {} {}{}: {}\n", r.backend, to_string(r.status),
                   expected(r) ? " (expected: reduced precision)" : "", r.reason);
    for (const BackendResult& r : run.results)
      if (r.prepack_ms)
        fmt::print(out, "  {} weight prepack: {:.4f} ms ({} the timed iterations)\n", r.backend,
                   *r.prepack_ms, outcome.include_prepack ? "included in" : "not in");
  }
  if (outcome.copy_bandwidth)
    fmt::print(out, "device copy bandwidth {:.0f} GB/s (read + write){}\n",
               outcome.copy_bandwidth->gb_per_s,
               outcome.max_sm_mhz ? fmt::format(", max SM clock {} MHz", *outcome.max_sm_mhz) : "");
}

}  // namespace mish
