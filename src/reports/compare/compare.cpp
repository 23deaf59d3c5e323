#include "reports/compare/compare.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "reports/compare/clocks.h"

namespace mish {
namespace {

const char* kHostOnly = "no GPU (host only)";

// The models a report ran on ("NVIDIA H200"; several, comma-separated, for a mixed node).
std::string device_name(const ReportSummary& report) {
  std::set<std::string> names;
  for (const ReportDevice& device : report.devices) names.insert(device.name);
  return names.empty() ? kHostOnly : fmt::format("{}", fmt::join(names, ", "));
}

// What a result is matched on besides its problem and backend: the CUDA index of its device (a
// host backend's: its host's first device), or its device's UUID (a host backend's: "host" and
// its host's name); empty without a device.
std::string device_key(const ReportSummary& report, const ReportResult& r, DeviceMatch match) {
  if (match == DeviceMatch::uuid && r.on_host) return "host " + report.hosts.at(r.host);
  if (!r.device) return "";
  const ReportDevice& device = report.devices.at(*r.device);
  if (match == DeviceMatch::index) return std::to_string(device.ordinal);
  if (device.uuid.empty())
    throw UsageError(fmt::format(
        "'{}' does not record device UUIDs (a report before schema 1.3); compare it with "
        "--match-devices index",
        for_terminal(report.label, kPathEchoLimit)));
  return device.uuid;
}

using ResultKey = std::tuple<ProblemKey, std::string, std::string>;  // problem, backend, device

// Every result of `report` by its key; two results on one key are refused.
std::map<ResultKey, const ReportResult*> keyed(const ReportSummary& report, DeviceMatch match) {
  std::map<ResultKey, const ReportResult*> results;
  for (const ReportResult& r : report.results) {
    const ResultKey key{r.problem, r.backend, device_key(report, r, match)};
    if (results.emplace(key, &r).second) continue;
    const std::string twice =
        fmt::format("'{}' has two results of backend '{}' on problem {}",
                    for_terminal(report.label, kPathEchoLimit), for_terminal(r.backend),
                    for_terminal(label(r.problem)));
    if (match == DeviceMatch::index)
      throw UsageError(fmt::format(
          "{} {} (from several hosts: a merged report); compare it with --match-devices uuid",
          twice, r.device ? "on CUDA device " + std::get<2>(key) : std::string("on a host")));
    throw UsageError(fmt::format("{} on '{}' (two hosts of one name, or one device twice); they "
                                 "cannot be paired",
                                 twice, for_terminal(std::get<2>(key))));
  }
  return results;
}

// Refuses a report none of whose results has samples: a gate on it would judge nothing.
void require_timing(const ReportSummary& report) {
  std::map<std::string, int> statuses;
  for (const ReportResult& r : report.results) {
    if (!r.samples_ms.empty()) return;
    ++statuses[r.status];
  }
  std::vector<std::string> counts;
  for (const auto& [status, count] : statuses)
    counts.push_back(fmt::format("{} {}", count, status));
  throw UsageError(fmt::format("nothing was timed in '{}' ({}); there is nothing to compare",
                               for_terminal(report.label, kPathEchoLimit),
                               fmt::join(counts, ", ")));
}

// Refuses figures taken while other processes used the GPU (honesty.shared_gpu): a gate on them
// judges the neighbours as much as the backend.
void refuse_shared_gpu(const ReportSummary& report, const CompareSettings& s) {
  if (s.allow_shared_gpu) return;
  for (const ReportResult& r : report.results)
    if (r.shared_gpu)
      throw UsageError(fmt::format(
          "'{}': {} was timed while other processes used the GPU (honesty.shared_gpu): its "
          "figures are disturbed and cannot gate. Run again on an idle GPU, or pass "
          "--allow-shared-gpu to compare anyway",
          for_terminal(report.label, kPathEchoLimit), for_terminal(r.backend)));
}

// Device and settings differences, as notes; different devices refused unless allowed.
void note_differences(const ReportSummary& base, const ReportSummary& fresh,
                      const CompareSettings& s, CompareOutcome& outcome) {
  const std::string base_device = device_name(base), new_device = device_name(fresh);
  if (base_device != new_device) {
    if (!s.allow_device_mismatch)
      throw UsageError(fmt::format(
          "the reports come from different devices ('{}' vs '{}'); timings are not comparable. "
          "Pass --allow-device-mismatch to compare anyway",
          for_terminal(base_device), for_terminal(new_device)));
    outcome.notes.push_back(fmt::format("devices differ: '{}' vs '{}' (compared anyway)",
                                        shortened(base_device), shortened(new_device)));
  }
  for (const auto& [key, base_value] : base.settings) {
    const auto found = fresh.settings.find(key);
    const std::string new_value = found == fresh.settings.end() ? "null" : found->second;
    if (base_value != new_value)
      outcome.notes.push_back(fmt::format("setting '{}' differs: {} vs {}", key,
                                          shortened(base_value), shortened(new_value)));
  }
}

// The clocks of both sides: noted when they differ, and the verdict confirmed in cycles.
void check_clocks(const ReportResult& b, const ReportResult& r, const CompareSettings& s,
                  Comparison& row) {
  row.clocks = clock_difference(*b.clocks, *r.clocks);
  const double factor = r.clocks->sm_mhz_median / b.clocks->sm_mhz_median;
  const RatioInterval cycles{row.ratio.ratio * factor, row.ratio.low * factor,
                             row.ratio.high * factor};
  row.cycles = cycles;
  const double p = mann_whitney_p(in_cycles(b.samples_ms, *b.clocks),
                                  in_cycles(r.samples_ms, *r.clocks));
  row.verdict = confirmed_in_cycles(row.verdict, decide(cycles, p, s), cycles, row.reason);
}

// A result of both reports: its verdict from the statuses, else from the samples.
void judge(const ReportResult& b, const ReportResult& r, const CompareSettings& s,
           Comparison& row) {
  row.base_status = b.status;
  if (!b.samples_ms.empty()) row.base_ms = fast_median(b.samples_ms);
  if (!r.samples_ms.empty()) row.new_ms = fast_median(r.samples_ms);
  const std::optional<Verdict> by_status =
      status_verdict(b.status, r.status, row.base_ms > 0, row.new_ms > 0);
  if (by_status) {
    row.verdict = *by_status;
    return;
  }
  row.ratio = bootstrap_median_ratio(b.samples_ms, r.samples_ms);
  row.p_value = mann_whitney_p(b.samples_ms, r.samples_ms);
  row.verdict = decide(row.ratio, row.p_value, s);
  if (b.clocks && r.clocks) check_clocks(b, r, s, row);
}

// A result of BASE that NEW lacks; the reason says where NEW ran that backend instead, if it did.
Comparison missing_row(const ResultKey& key, const ReportResult& result,
                       const ReportSummary& fresh) {
  Comparison row;
  row.problem = std::get<0>(key);
  row.backend = std::get<1>(key);
  row.device = std::get<2>(key);
  row.base_status = result.status;
  if (!result.samples_ms.empty()) row.base_ms = fast_median(result.samples_ms);
  row.verdict = Verdict::missing;
  row.reason = "not in NEW";
  for (const ReportResult& r : fresh.results) {
    if (r.backend != row.backend) continue;
    row.reason =
        r.problem == row.problem
            ? "NEW ran it on another device"
            : fmt::format("NEW ran it on another problem ({})", shortened(label(r.problem)));
    break;
  }
  return row;
}

}  // namespace

std::string to_string(DeviceMatch match) { return match == DeviceMatch::uuid ? "uuid" : "index"; }

DeviceMatch parse_device_match(const std::string& text) {
  if (text == "index") return DeviceMatch::index;
  if (text == "uuid") return DeviceMatch::uuid;
  throw UsageError(fmt::format("--match-devices: unknown value '{}'; choose index or uuid",
                               for_terminal(text)));
}

int CompareOutcome::failures() const {
  int count = 0;
  for (const Comparison& row : rows) count += row.fails ? 1 : 0;
  return count;
}

void apply_gate(Comparison& row, const CompareSettings& s) {
  const std::set<std::string>& allow =
      row.verdict == Verdict::broken ? s.allow_broken : s.allow_missing;
  const bool would_fail = fails(row.verdict, row.base_ms > 0);
  row.allowed = would_fail && allow.count(row.backend) > 0;
  row.fails = would_fail && !row.allowed;
}

CompareOutcome compare_reports(const ReportSummary& base, const ReportSummary& fresh,
                               const CompareSettings& s) {
  require_timing(base);
  require_timing(fresh);
  refuse_shared_gpu(base, s);
  refuse_shared_gpu(fresh, s);
  CompareOutcome outcome;
  outcome.method =
      "ratio = new median / base median with its 95% bootstrap interval; p from a two-sided "
      "Mann–Whitney U test";
  note_differences(base, fresh, s, outcome);
  outcome.per_device = base.devices.size() > 1 || fresh.devices.size() > 1;
  const std::map<ResultKey, const ReportResult*> base_results = keyed(base, s.match);
  keyed(fresh, s.match);  // refuses two results of NEW on one key, as of BASE
  std::set<ResultKey> seen;

  for (const ReportResult& r : fresh.results) {
    Comparison row;
    row.backend = r.backend;
    row.problem = r.problem;
    row.device = device_key(fresh, r, s.match);
    row.new_status = r.status;
    const auto found = base_results.find({r.problem, r.backend, row.device});
    if (found == base_results.end()) {
      row.verdict = Verdict::added;
    } else {
      seen.insert(found->first);
      judge(*found->second, r, s, row);
    }
    apply_gate(row, s);
    outcome.rows.push_back(row);
  }
  for (const auto& [key, result] : base_results) {
    if (seen.count(key)) continue;
    Comparison row = missing_row(key, *result, fresh);
    apply_gate(row, s);
    outcome.rows.push_back(row);
  }
  return outcome;
}

}  // namespace mish
