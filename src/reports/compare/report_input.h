// The reports `mishbench compare` reads, treated as untrusted input: read from a file with a size
// and nesting limit, schema-checked, and reduced to exactly what compare uses, every field type-
// and range-checked, so that a malformed or hostile report is refused with one clear message
// (UsageError, exit 2) instead of a parser exception or a wrong verdict. Limits in
// docs/compare.md.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace mish {

constexpr size_t kMaxReportBytes = size_t(1) << 30;  // 1 GiB
constexpr int kMaxReportDepth = 64;                  // a mishbench report nests 6 levels deep

struct ProblemKey {
  int64_t m = 0, n = 0, k = 0;
  uint64_t seed = 0;
  std::string distribution;
  bool operator<(const ProblemKey& other) const {
    return std::tie(m, n, k, distribution, seed) <
           std::tie(other.m, other.n, other.k, other.distribution, other.seed);
  }
  bool operator==(const ProblemKey& other) const {
    return std::tie(m, n, k, distribution, seed) ==
           std::tie(other.m, other.n, other.k, other.distribution, other.seed);
  }
};

// "1024x8192x8192 kernelbench seed 42" (the distribution as stored: escape it to display it).
std::string label(const ProblemKey& problem);

// A device as a report names it. A report before schema 1.3 names one, `device`, with no UUID.
struct ReportDevice {
  int64_t ordinal = 0;  // the CUDA device index
  std::string name;
  std::string uuid;  // "GPU-..."; empty before 1.3
};

// A result's clocks as its report records them (timing.clocks, schema 1.1).
struct SampleClocks {
  double sm_mhz_median = 0;  // > 0
  // The share of samples read while throttled with the power cap (or power brake) among the
  // reasons: the report gives the union of the throttled samples' reasons, not each one's.
  double power_capped = 0;
};

struct ReportResult {
  std::string backend;
  ProblemKey problem;
  std::string status;              // ok, mismatch, skipped, error or implausible
  std::vector<double> samples_ms;  // empty when untimed; else every sample finite and > 0
  std::optional<SampleClocks> clocks;  // when the samples' SM clock was recorded
  // The device the result is matched on by index: an index into ReportSummary::devices, the
  // device it ran on, or for a host backend its host's first device (as its speedup and roofline
  // are); empty when its host has no device. Before 1.3 every result belongs to the report's
  // `device`.
  std::optional<size_t> device;
  bool on_host = false;  // a host backend (known from 1.3 on): matched by its host's name by UUID
  size_t host = 0;       // an index into ReportSummary::hosts
  bool shared_gpu = false;  // other processes used the GPU while it was timed (from 1.4 on)
};

struct ReportSummary {
  std::string label;                            // the path, as given
  std::vector<ReportDevice> devices;            // empty: a host-only run
  std::vector<std::string> hosts;               // hostnames; one before 1.3
  std::map<std::string, std::string> settings;  // the settings compare notes, as JSON text
  std::vector<ReportResult> results;            // non-empty, one per (backend, problem, device)
};

// Reads, parses and schema-checks the report at `path`; prints the schema's warnings (a newer
// minor version) on stderr as "mishbench <command>: warning: ...". Throws UsageError naming the
// path when it cannot be used.
nlohmann::json load_report(const std::string& path, std::string_view command = "compare");

// What compare needs from `report`; throws UsageError "<label>: <where>: <what is wrong>".
ReportSummary summarize_report(const nlohmann::json& report, std::string_view label);

// load_report, then summarize_report with the path as label.
ReportSummary read_report(const std::string& path);

}  // namespace mish
