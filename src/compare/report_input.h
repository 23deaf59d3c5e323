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
};

// "1024x8192x8192 kernelbench seed 42" (the distribution as stored: escape it to display it).
std::string label(const ProblemKey& problem);

struct ReportResult {
  std::string backend;
  ProblemKey problem;
  std::string status;              // ok, mismatch, skipped or error
  std::vector<double> samples_ms;  // empty when untimed; else every sample finite and > 0
};

struct ReportSummary {
  std::optional<std::string> device;            // nullopt: a host-only run
  std::map<std::string, std::string> settings;  // the settings compare notes, as JSON text
  std::vector<ReportResult> results;            // non-empty, one per (backend, problem)
};

// Reads, parses and schema-checks the report at `path`; prints the schema's warnings (a newer
// minor version) on stderr. Throws UsageError naming the path when it cannot be used.
nlohmann::json load_report(const std::string& path);

// What compare needs from `report`; throws UsageError "<label>: <where>: <what is wrong>".
ReportSummary summarize_report(const nlohmann::json& report, std::string_view label);

// load_report, then summarize_report with the path as label.
ReportSummary read_report(const std::string& path);

}  // namespace mish
