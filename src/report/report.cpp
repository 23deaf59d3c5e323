#include "report/report.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "common/errors.h"
#include "common/version.h"

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
                     {"expected", v.worst.expected}}}};
}

json timing_json(const BackendResult& r) {
  const TimingStats& s = r.stats;
  return {{"samples_ms", r.samples_ms}, {"count", s.count},   {"median_ms", s.median},
          {"mean_ms", s.mean},          {"min_ms", s.min},     {"max_ms", s.max},
          {"stdev_ms", s.stdev},        {"p5_ms", s.p5},       {"p95_ms", s.p95},
          {"iqr_ms", s.iqr}};
}

// A mismatch the backend's accuracy class predicts.
bool expected(const BackendResult& r) {
  return r.status == Status::mismatch && r.expected_accuracy == Accuracy::reduced;
}

double tflops(const Problem& p, const BackendResult& r) {
  return r.stats.count > 0 && r.stats.median > 0 ? p.flops() / (r.stats.median * 1e-3) / 1e12 : 0.0;
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
  report["device"] = outcome.device ? to_json(*outcome.device) : json(nullptr);
  report["settings"] = {{"warmup", config.sampling.warmup},
                        {"iters", config.sampling.iters},
                        {"l2", to_string(config.sampling.l2)},
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
        entry["tflops"] = tflops(run.problem, r);
        const double speedup = speedup_vs_separate(run, r);
        entry["speedup_vs_separate"] = speedup > 0 ? json(speedup) : json(nullptr);
      } else {
        entry["timing"] = nullptr;
        entry["tflops"] = nullptr;
        entry["speedup_vs_separate"] = nullptr;
      }
      entry["verification"] = r.verification ? verification_json(*r.verification) : json(nullptr);
      report["results"].push_back(entry);
    }
  }
  return report;
}

void write_json_atomically(const std::string& path, const json& document) {
  const std::string temporary = fmt::format("{}.tmp.{}", path, getpid());
  {
    std::ofstream out(temporary);
    if (!out) throw UsageError(fmt::format("cannot write report '{}': check the folder exists", path));
    out << document.dump(2) << '\n';
    if (!out) throw UsageError(fmt::format("writing report '{}' failed (disk full?)", temporary));
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary);
    throw UsageError(fmt::format("cannot move report into '{}': {}", path, error.message()));
  }
}

void print_table(std::FILE* out, const RunOutcome& outcome) {
  for (const ProblemRun& run : outcome.runs) {
    const Problem& p = run.problem;
    fmt::print(out, "\nproblem m={} n={} k={} ({}, seed {}), reference {:.0f} ms\n", p.m, p.n, p.k,
               to_string(p.distribution), p.seed, run.reference_ms);
    fmt::print(out, "{:<10} {:<9} {:>11} {:>9} {:>8} {:>12} {:>10}\n", "backend", "status",
               "median ms", "TFLOP/s", "speedup", "max abs err", "mismatch");
    bool any_expected_mismatch = false;
    for (const BackendResult& r : run.results) {
      const bool timed = r.stats.count > 0;
      const double speedup = speedup_vs_separate(run, r);
      const bool expected_mismatch = expected(r);
      any_expected_mismatch |= expected_mismatch;
      fmt::print(out, "{:<10} {:<9} {:>11} {:>9} {:>8} {:>12} {:>10}\n", r.backend,
                 to_string(r.status) + (expected_mismatch ? "*" : ""), timed ? fmt::format("{:.4f}", r.stats.median) : "-",
                 timed ? fmt::format("{:.3g}", tflops(p, r)) : "-",
                 speedup > 0 ? fmt::format("{:.2f}x", speedup) : "-",
                 r.verification ? fmt::format("{:.2e}", r.verification->max_abs) : "-",
                 r.verification ? fmt::format("{}", r.verification->mismatches) : "-");
    }
    if (any_expected_mismatch)
      fmt::print(out, "  * expected: reduced precision (misses the tolerance by design; does not "
                      "fail the run)\n");
    for (const BackendResult& r : run.results)
      if (r.status != Status::ok)
        fmt::print(out, "  {} {}{}: {}\n", r.backend, to_string(r.status),
                   expected(r) ? " (expected: reduced precision)" : "", r.reason);
    for (const BackendResult& r : run.results)
      if (r.prepack_ms)
        fmt::print(out, "  {} weight prepack: {:.4f} ms ({} the timed iterations)\n", r.backend,
                   *r.prepack_ms, outcome.include_prepack ? "included in" : "not in");
  }
}

}  // namespace mish
