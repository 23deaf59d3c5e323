#include "reports/report/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/common/untrusted_text.h"
#include "core/timing/peaks.h"
#include "reports/report/figures.h"
#include "reports/report/node_summary.h"

namespace mish {
namespace {

// A reason can quote a backend's own long message; the report keeps it whole.
constexpr size_t kReasonEchoLimit = 2000;
// The backend column is at least this wide, and as wide as the longest name of the run.
constexpr size_t kNameColumn = 10;

size_t name_column(const RunOutcome& outcome) {
  size_t width = kNameColumn;
  for (const ProblemRun& run : outcome.runs)
    for (const BackendResult& r : run.results)
      width = std::max(width, for_terminal(r.backend).size());
  return width;
}

std::string percent_of_peak(const Problem& p, const BackendResult& r, const DeviceRecord* device) {
  if (device == nullptr || r.stats.count == 0) return "-";
  const PeakLookup peak = peak_tflops(device->info.name, r.math_mode);
  return peak.tflops ? fmt::format("{:.0f}%", 100.0 * tflops(p, r) / *peak.tflops) : "-";
}

// The median over the problem's roofline bound (the larger of its memory and compute floors).
std::string multiple_of_floor(const Problem& p, const BackendResult& r,
                              const DeviceRecord* device) {
  if (r.stats.count == 0) return "-";
  const std::optional<double> floor = floors_of(p, r.math_mode, device).floor_ms();
  return floor ? fmt::format("{:.2f}x", r.stats.median / *floor) : "-";
}

// A rate given in TFLOP/s, to three significant digits and without an exponent: from 1 TFLOP/s up
// in TFLOP/s, below it in GFLOP/s or MFLOP/s (a host backend's 0.000407 TFLOP/s is 407 MFLOP/s).
struct FlopRate {
  std::string number;
  char prefix = 'T';
  std::string in_column() const { return prefix == 'T' ? number : number + prefix; }  // "877G"
  std::string in_text() const { return fmt::format("{} {}FLOP/s", number, prefix); }
};

FlopRate flop_rate(double tflops) {
  constexpr double kRoundsUp = 0.9995;  // three digits of it read 1.00 of the next unit
  FlopRate rate;
  double value = tflops;
  for (const char prefix : {'G', 'M'}) {
    if (value >= kRoundsUp) break;
    value *= 1e3;
    rate.prefix = prefix;
  }
  rate.number = value >= 1e3 * kRoundsUp ? fmt::format("{:.0f}", value) : fmt::format("{:.3g}", value);
  return rate;
}

// Half the width of the median's 95% confidence interval, in percent of the median: "-" when the
// samples are too few for a 95% interval (under 6, [min, max] covers less), ">99" when it is
// wider than the median itself (a figure there says nothing more).
std::string ci_half_width(const TimingStats& stats) {
  constexpr double kCoverage = 0.95, kRounding = 1e-9;
  if (stats.count == 0 || stats.ci_confidence + kRounding < kCoverage) return "-";
  const double percent = 50.0 * stats.ci_relative_width();
  return percent > 99 ? ">99" : fmt::format("{:.2f}", percent);
}

// The verified output's max abs error, over its finite elements: "non-finite" when some were NaN
// or Inf, since then the largest error is not a number at all.
std::string max_abs_error(const BackendResult& r) {
  if (!r.verification) return "-";
  if (r.verification->nonfinite > 0) return "non-finite";
  return fmt::format("{:.2e}", r.verification->max_abs);
}

// The lines below the table: graph replays, stage breakdown and clocks, one backend at a time.
void print_timing_details(std::FILE* out, const Problem& p, const BackendResult& r,
                          const std::optional<CopyBandwidth>& copy, size_t width) {
  const std::string name = for_terminal(r.backend);
  if (r.graph)
    fmt::print(out, "  {:<{}} graph     {:.4f} ms  {}  (CI +-{}%, {} nodes)\n",
               name, width, r.graph->stats.median, flop_rate(tflops_at(p, r.graph->stats.median)).in_text(),
               ci_half_width(r.graph->stats), r.graph_nodes);
  if (!r.stages.empty()) {
    std::vector<std::string> parts;
    double sum_ms = 0.0;
    for (const StageResult& stage : r.stages) {
      sum_ms += stage.timing.stats.median;
      if (stage.kind == StageKind::gemm) {
        parts.push_back(fmt::format("{} {:.4f} ms {}", stage.name, stage.timing.stats.median,
                                    flop_rate(tflops_at(p, stage.timing.stats.median)).in_text()));
      } else {
        const double gbps = stage_gb_per_s(stage);
        parts.push_back(fmt::format(
            "{} {:.4f} ms {:.0f} GB/s{}", stage.name, stage.timing.stats.median, gbps,
            copy && copy->gb_per_s > 0 ? fmt::format(" ({:.0f}% of copy)", 100.0 * gbps / copy->gb_per_s)
                                       : ""));
      }
    }
    fmt::print(out, "  {:<{}} stages    {} | sum {:.4f} ms vs whole {:.4f} ms\n", name, width,
               fmt::join(parts, " | "), sum_ms, r.stats.median);
  }
  if (r.clocks && r.clocks->readings > 0)
    fmt::print(out, "  {:<{}} clocks    SM {} MHz median ({}-{}), {} of {} samples throttled\n",
               name, width, r.clocks->sm_mhz_median, r.clocks->sm_mhz_min, r.clocks->sm_mhz_max,
               r.clocks->throttled_samples.size(), r.stats.count);
  // Printed under --quiet too: a CI log must show why a time is not worth gating on.
  if (r.shared_gpu) {
    std::vector<std::string> others;
    for (const OtherProcess& p : r.other_processes) others.push_back(process_label(p));
    const std::string who =
        others.empty() ? "another process" : fmt::format("{}", fmt::join(others, ", "));
    fmt::print(out, "  {:<{}} shared    GPU used by {} while timed: timings disturbed, compare "
                    "will not gate on them\n",
               name, width, who);
  }
}


// The table of `results` (one device's, the host's, or all of a run with one device) and the lines
// below it.
void print_results(std::FILE* out, const ProblemRun& run,
                   const std::vector<const BackendResult*>& results, const RunOutcome& outcome) {
  const Problem& p = run.problem;
  const size_t width = name_column(outcome);
  fmt::print(out, "{:<{}} {:<11} {:>11} {:>8} {:>9} {:>6} {:>7} {:>8} {:>12} {:>10}\n",
             "backend", width, "status", "median ms", "CI +-%", "TFLOP/s", "peak", "floor", "speedup",
             "max abs err", "mismatch");
  bool any_expected_mismatch = false;
  for (const BackendResult* result : results) {
    const BackendResult& r = *result;
    const DeviceRecord* device = outcome.device_of(r);
    const bool timed = r.stats.count > 0;
    const double speedup = speedup_vs_separate(run, r);
    const bool predicted = expected_mismatch(r);
    any_expected_mismatch |= predicted;
    fmt::print(out, "{:<{}} {:<11} {:>11} {:>8} {:>9} {:>6} {:>7} {:>8} {:>12} {:>10}\n",
               for_terminal(r.backend), width, to_string(r.status) + (predicted ? "*" : ""),
               timed ? fmt::format("{:.4f}", r.stats.median) : "-",
               ci_half_width(r.stats),
               timed ? flop_rate(tflops(p, r)).in_column() : "-", percent_of_peak(p, r, device),
               multiple_of_floor(p, r, device),
               speedup > 0 ? fmt::format("{:.2f}x", speedup) : "-",
               max_abs_error(r),
               r.verification ? fmt::format("{}", r.verification->mismatches) : "-");
  }
  if (any_expected_mismatch)
    fmt::print(out, "  * expected: reduced precision (misses the tolerance by design; does not "
                    "fail the run)\n");
  for (const BackendResult* r : results) {
    const DeviceRecord* device = outcome.device_of(*r);
    print_timing_details(out, p, *r, device ? device->copy_bandwidth : std::nullopt, width);
  }
  for (const BackendResult* r : results)
    if (r->status != Status::ok)
      fmt::print(out, "  {} {}{}: {}\n", for_terminal(r->backend), to_string(r->status),
                 expected_mismatch(*r) ? " (expected: reduced precision)" : "",
                 for_terminal(r->reason, kReasonEchoLimit));
  for (const BackendResult* r : results)
    if (r->prepack_ms)
      fmt::print(out, "  {} weight prepack: {:.4f} ms ({} the timed iterations)\n", r->backend,
                 *r->prepack_ms, outcome.include_prepack ? "included in" : "not in");
}

// After the tables of several problems: how many results of each status, and which failed.
void print_run_summary(std::FILE* out, const RunOutcome& outcome) {
  if (outcome.runs.size() < 2) return;
  std::vector<std::pair<std::string, int>> counts;  // in the order first seen
  size_t results = 0;
  std::vector<std::string> failed;
  for (const ProblemRun& run : outcome.runs) {
    std::vector<std::string> here;
    for (const BackendResult& r : run.results) {
      ++results;
      const std::string status = to_string(r.status) + (expected_mismatch(r) ? "*" : "");
      const auto seen = std::find_if(counts.begin(), counts.end(),
                                     [&](const auto& count) { return count.first == status; });
      if (seen == counts.end()) counts.push_back({status, 1});
      else ++seen->second;
      if (fails_the_run(r)) here.push_back(fmt::format("{} {}", for_terminal(r.backend), status));
    }
    const Problem& p = run.problem;
    if (!here.empty())
      failed.push_back(fmt::format("  {} ({}, seed {}): {}", p.shape(), to_string(p.distribution),
                                   p.seed, fmt::join(here, ", ")));
  }
  std::vector<std::string> parts;
  for (const auto& [status, count] : counts) parts.push_back(fmt::format("{} {}", count, status));
  fmt::print(out, "\n{} problems, {} results: {}; {}\n", outcome.runs.size(), results,
             fmt::join(parts, ", "),
             failed.empty() ? "none failed" : fmt::format("failed on {} of them:", failed.size()));
  for (const std::string& line : failed) fmt::print(out, "{}\n", line);
}

std::string device_heading(const DeviceRecord& device) {
  return fmt::format("gpu {}: {} ({}, PCI {})", device.info.ordinal,
                     for_terminal(device.info.name), device.info.uuid, device.info.pci_bus_id);
}

void print_bandwidths(std::FILE* out, const DeviceRecord& device, const std::string& prefix) {
  if (!device.copy_bandwidth) return;
  fmt::print(out, "{}device copy bandwidth {:.0f} GB/s (read + write), read {:.0f} GB/s{}\n",
             prefix, device.copy_bandwidth->gb_per_s,
             device.read_bandwidth ? device.read_bandwidth->gb_per_s : 0.0,
             device.max_sm_mhz ? fmt::format(", max SM clock {} MHz", *device.max_sm_mhz) : "");
}

std::string throttling(const DeviceTiming& t) {
  if (t.throttled_samples == 0) return "";
  return fmt::format("  throttled {} of {} samples ({})", t.throttled_samples, t.samples,
                     fmt::join(t.throttle_reasons, ", "));
}

}  // namespace

void print_table(std::FILE* out, const RunOutcome& outcome, const Tolerance& tolerance) {
  const bool several = outcome.devices.size() > 1;
  for (const ProblemRun& run : outcome.runs) {
    const Problem& p = run.problem;
    // A reference of 0 ms was not computed: no backend could run (run/runner.cpp).
    const std::string reference = run.reference_ms > 0
                                      ? fmt::format("reference {:.0f} ms", run.reference_ms)
                                      : std::string("reference not computed");
    fmt::print(out, "\nproblem m={} n={} k={} ({}, seed {}), {}\n", p.m, p.n, p.k,
               to_string(p.distribution), p.seed, reference);
    if (!several) {
      std::vector<const BackendResult*> all;
      for (const BackendResult& r : run.results) all.push_back(&r);
      print_results(out, run, all, outcome);
      continue;
    }
    // Grouped: each device's results, in the order the devices ran, then the host's.
    for (size_t d = 0; d <= outcome.devices.size(); ++d) {
      const bool host = d == outcome.devices.size();
      std::vector<const BackendResult*> group;
      for (const BackendResult& r : run.results)
        if (host ? !r.device : r.device == d) group.push_back(&r);
      if (group.empty()) continue;
      fmt::print(out, "{}\n", host ? "host:" : device_heading(outcome.devices[d]));
      print_results(out, run, group, outcome);
    }
  }
  print_run_summary(out, outcome);
  fmt::print(out,
             "\n  CI +-%: half the median's 95% confidence interval; peak: of the math mode's "
             "peak on this GPU; floor: median / roofline floor; speedup: vs separate\n"
             "  verified: every checked output within atol {:g} + rtol {:g} x |reference|\n",
             tolerance.atol, tolerance.rtol);
  for (const DeviceRecord& device : outcome.devices)
    print_bandwidths(out, device, several ? fmt::format("gpu {} ", device.info.ordinal) : "");
}

void print_node_summary(std::FILE* out, const RunOutcome& outcome) {
  const std::vector<NodeSummaryRow> rows = summarize_node(device_timings(outcome));
  if (rows.empty()) return;
  fmt::print(out,
             "\nnode summary ({}): per backend the node median (median of the device medians) "
             "and each device's ratio to it; flagged when the device's 95% CI lies beyond "
             "+-{:.0f}% of the node median\n",
             outcome.devices_parallel ? "devices at the same time" : "devices one after another",
             100 * kNodeBand);
  int flagged = 0;
  for (const NodeSummaryRow& row : rows) {
    const Problem& p = outcome.runs.at(row.problem).problem;
    fmt::print(out, "  {:<{}} {} ({}, seed {}): node median {:.4f} ms\n",
               for_terminal(row.backend), name_column(outcome), p.shape(), to_string(p.distribution), p.seed, row.node_median_ms);
    for (const DeviceStanding& d : row.devices) {
      const DeviceInfo& info = outcome.devices.at(d.timing.device).info;
      flagged += d.deviation != Deviation::none ? 1 : 0;
      std::string line = fmt::format("    gpu {:<3} {:>10.4f} ms {:>7.3f}x  {:<5}{}", info.ordinal,
                                     d.timing.median_ms, d.ratio,
                                     d.deviation == Deviation::slow   ? "SLOW"
                                     : d.deviation == Deviation::fast ? "FAST"
                                                                      : "",
                                     throttling(d.timing));
      line.erase(line.find_last_not_of(' ') + 1);
      fmt::print(out, "{}\n", line);
    }
  }
  fmt::print(out, "  {}\n",
             flagged == 0 ? std::string("every device within the band")
                          : fmt::format("{} device result{} outside the band", flagged,
                                        flagged == 1 ? "" : "s"));
}

}  // namespace mish
