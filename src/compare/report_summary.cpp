// summarize_report: every field compare reads, checked for type and range before use, so that
// nlohmann's type errors never escape and no sample that is not a positive finite time reaches
// the statistics.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "common/errors.h"
#include "common/untrusted_text.h"
#include "compare/report_input.h"

namespace mish {
namespace {

using nlohmann::json;

const char* kind_of(const json& value) {
  if (value.is_boolean()) return "a boolean";
  if (value.is_number_integer()) return "an integer";
  if (value.is_number()) return "a number";
  if (value.is_string()) return "a string";
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  return "null";
}

// Throws "<label>: <where>: <problem>"; `where` is built from our own key names and indices.
class Reader {
 public:
  explicit Reader(std::string_view label) : label_(label) {}

  [[noreturn]] void refuse(const std::string& where, const std::string& problem) const {
    throw UsageError(fmt::format("'{}': {}: {}", label_, where, problem));
  }

  const json& field(const json& object, const std::string& where, const char* key) const {
    if (!object.contains(key)) refuse(where, fmt::format("missing '{}'", key));
    return object[key];
  }

  std::string text(const json& value, const std::string& where) const {
    if (!value.is_string()) refuse(where, fmt::format("expected a string, got {}", kind_of(value)));
    if (value.get_ref<const std::string&>().empty()) refuse(where, "is empty");
    return value.get<std::string>();
  }

  // A whole number in [min, max]; JSON numbers with a fraction or exponent (1e3, 1.0) are
  // refused, as the report writer never produces them.
  uint64_t whole(const json& value, const std::string& where, uint64_t min, uint64_t max) const {
    const std::string range = fmt::format("an integer from {} to {}", min, max);
    if (!value.is_number_integer())
      refuse(where, fmt::format("expected {}, got {}", range, kind_of(value)));
    const bool negative = !value.is_number_unsigned() && value.get<int64_t>() < 0;
    if (negative || value.get<uint64_t>() < min || value.get<uint64_t>() > max)
      refuse(where, fmt::format("{} is out of range; expected {}", value.dump(), range));
    return value.get<uint64_t>();
  }

 private:
  std::string label_;
};

ProblemKey read_problem(const Reader& in, const json& problem, const std::string& where) {
  if (!problem.is_object())
    in.refuse(where, fmt::format("expected an object, got {}", kind_of(problem)));
  constexpr uint64_t kLargest = std::numeric_limits<int64_t>::max();
  const auto dimension = [&](const char* key) {
    return static_cast<int64_t>(
        in.whole(in.field(problem, where, key), fmt::format("{}.{}", where, key), 1, kLargest));
  };
  ProblemKey key;
  key.m = dimension("m");
  key.n = dimension("n");
  key.k = dimension("k");
  key.seed = in.whole(in.field(problem, where, "seed"), where + ".seed", 0,
                      std::numeric_limits<uint64_t>::max());
  key.distribution = in.text(in.field(problem, where, "distribution"), where + ".distribution");
  return key;
}

std::vector<double> read_samples(const Reader& in, const json& timing, const std::string& where) {
  if (timing.is_null()) return {};
  if (!timing.is_object())
    in.refuse(where, fmt::format("expected an object or null, got {}", kind_of(timing)));
  const std::string samples_where = where + ".samples_ms";
  const json& samples = in.field(timing, where, "samples_ms");
  if (!samples.is_array())
    in.refuse(samples_where, fmt::format("expected an array, got {}", kind_of(samples)));
  if (samples.empty()) in.refuse(samples_where, "is empty; a timed result has samples");
  std::vector<double> values;
  values.reserve(samples.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    const json& sample = samples[i];
    const std::string at = fmt::format("{}[{}]", samples_where, i);
    if (!sample.is_number())
      in.refuse(at, fmt::format("expected a number, got {}", kind_of(sample)));
    const double value = sample.get<double>();
    if (!std::isfinite(value)) in.refuse(at, "is not finite (a number too large for a double)");
    if (value <= 0.0) in.refuse(at, fmt::format("{} is not a positive time in ms", value));
    values.push_back(value);
  }
  return values;
}

ReportResult read_result(const Reader& in, const json& result, const std::string& where) {
  if (!result.is_object())
    in.refuse(where, fmt::format("expected an object, got {}", kind_of(result)));
  ReportResult r;
  r.backend = in.text(in.field(result, where, "backend"), where + ".backend");
  r.problem = read_problem(in, in.field(result, where, "problem"), where + ".problem");
  r.status = in.text(in.field(result, where, "status"), where + ".status");
  if (r.status != "ok" && r.status != "mismatch" && r.status != "skipped" && r.status != "error")
    in.refuse(where + ".status",
              fmt::format("'{}' is not ok, mismatch, skipped or error", for_terminal(r.status)));
  r.samples_ms = read_samples(in, in.field(result, where, "timing"), where + ".timing");
  return r;
}

std::optional<std::string> read_device(const Reader& in, const json& report) {
  const json& device = in.field(report, "report", "device");
  if (device.is_null()) return std::nullopt;
  if (!device.is_object())
    in.refuse("device", fmt::format("expected an object or null, got {}", kind_of(device)));
  if (!device.contains("name")) return std::string("unknown");
  return in.text(device["name"], "device.name");
}

}  // namespace

std::string label(const ProblemKey& p) {
  return fmt::format("{}x{}x{} {} seed {}", p.m, p.n, p.k, p.distribution, p.seed);
}

ReportSummary summarize_report(const json& report, std::string_view label_text) {
  const Reader in(label_text);
  if (!report.is_object())
    in.refuse("report", fmt::format("expected an object, got {}", kind_of(report)));
  ReportSummary summary;
  summary.device = read_device(in, report);

  const json& settings = in.field(report, "report", "settings");
  if (!settings.is_object())
    in.refuse("settings", fmt::format("expected an object, got {}", kind_of(settings)));
  for (const char* key : {"l2", "graph", "iters", "warmup"})
    summary.settings[key] = settings.contains(key) ? settings[key].dump() : "null";

  const json& results = in.field(report, "report", "results");
  if (!results.is_array())
    in.refuse("results", fmt::format("expected an array, got {}", kind_of(results)));
  if (results.empty()) in.refuse("results", "is empty; there is nothing to compare");
  std::map<std::pair<ProblemKey, std::string>, size_t> first_seen;
  for (size_t i = 0; i < results.size(); ++i) {
    const std::string where = fmt::format("results[{}]", i);
    ReportResult r = read_result(in, results[i], where);
    const auto [seen, fresh] = first_seen.emplace(std::make_pair(r.problem, r.backend), i);
    if (!fresh)
      in.refuse(where,
                fmt::format("repeats backend '{}' on problem {} (results[{}]); a report "
                            "has one result per backend and problem",
                            for_terminal(r.backend), for_terminal(label(r.problem)), seen->second));
    summary.results.push_back(std::move(r));
  }
  return summary;
}

}  // namespace mish
