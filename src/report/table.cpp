#include "report/table.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "common/untrusted_text.h"
#include "report/figures.h"
#include "timing/peaks.h"

namespace mish {
namespace {

// A reason can quote a backend's own long message; the report keeps it whole.
constexpr size_t kReasonEchoLimit = 2000;

std::string percent_of_peak(const Problem& p, const BackendResult& r,
                            const std::optional<DeviceInfo>& device) {
  if (!device || r.stats.count == 0) return "-";
  const PeakLookup peak = peak_tflops(device->name, r.math_mode);
  return peak.tflops ? fmt::format("{:.0f}%", 100.0 * tflops(p, r) / *peak.tflops) : "-";
}

// The median over the problem's roofline bound (the larger of its memory and compute floors).
std::string multiple_of_floor(const Problem& p, const BackendResult& r, const RunOutcome& outcome) {
  if (r.stats.count == 0) return "-";
  const std::optional<double> floor =
      floors_of(p, r.math_mode, outcome.device, outcome.read_bandwidth).floor_ms();
  return floor ? fmt::format("{:.2f}x", r.stats.median / *floor) : "-";
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
    fmt::print(out, "{:<10} {:<9} {:>11} {:>8} {:>9} {:>6} {:>7} {:>8} {:>12} {:>10}\n",
               "backend", "status", "median ms", "CI +-%", "TFLOP/s", "peak", "floor", "speedup",
               "max abs err", "mismatch");
    bool any_expected_mismatch = false;
    for (const BackendResult& r : run.results) {
      const bool timed = r.stats.count > 0;
      const double speedup = speedup_vs_separate(run, r);
      const bool predicted = expected_mismatch(r);
      any_expected_mismatch |= predicted;
      fmt::print(out, "{:<10} {:<9} {:>11} {:>8} {:>9} {:>6} {:>7} {:>8} {:>12} {:>10}\n",
                 for_terminal(r.backend), to_string(r.status) + (predicted ? "*" : ""),
                 timed ? fmt::format("{:.4f}", r.stats.median) : "-",
                 timed ? fmt::format("{:.2f}", 50.0 * r.stats.ci_relative_width()) : "-",
                 timed ? fmt::format("{:.3g}", tflops(p, r)) : "-",
                 percent_of_peak(p, r, outcome.device), multiple_of_floor(p, r, outcome),
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
        fmt::print(out, "  {} {}{}: {}\n", for_terminal(r.backend), to_string(r.status),
                   expected_mismatch(r) ? " (expected: reduced precision)" : "",
                   for_terminal(r.reason, kReasonEchoLimit));
    for (const BackendResult& r : run.results)
      if (r.prepack_ms)
        fmt::print(out, "  {} weight prepack: {:.4f} ms ({} the timed iterations)\n", r.backend,
                   *r.prepack_ms, outcome.include_prepack ? "included in" : "not in");
  }
  if (outcome.copy_bandwidth)
    fmt::print(out, "device copy bandwidth {:.0f} GB/s (read + write), read {:.0f} GB/s{}\n",
               outcome.copy_bandwidth->gb_per_s,
               outcome.read_bandwidth ? outcome.read_bandwidth->gb_per_s : 0.0,
               outcome.max_sm_mhz ? fmt::format(", max SM clock {} MHz", *outcome.max_sm_mhz) : "");
}

}  // namespace mish
