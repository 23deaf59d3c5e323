#include "reports/report/schema.h"

#include <fmt/format.h>

namespace mish {
namespace {

using nlohmann::json;
using Type = json::value_t;

bool is_number(const json& v) { return v.is_number(); }

// Adds an error unless `object[key]` exists and satisfies `accept`.
template <typename Accept>
void require(SchemaCheck& check, const json& object, const std::string& where,
             const std::string& key, const char* expected, Accept accept) {
  if (!object.is_object() || !object.contains(key)) {
    check.errors.push_back(fmt::format("{}: missing '{}'", where, key));
  } else if (!accept(object.at(key))) {
    check.errors.push_back(fmt::format("{}.{}: expected {}", where, key, expected));
  }
}


void check_result(SchemaCheck& check, const json& r, const std::string& where) {
  auto string = [](const json& v) { return v.is_string(); };
  auto object = [](const json& v) { return v.is_object(); };
  require(check, r, where, "backend", "a string", string);
  require(check, r, where, "status", "ok, mismatch, skipped, error or implausible",
          [](const json& v) {
            return v.is_string() && (v == "ok" || v == "mismatch" || v == "skipped" ||
                                     v == "error" || v == "implausible");
          });
  require(check, r, where, "reason", "a string", string);
  require(check, r, where, "math_mode", "a string", string);
  require(check, r, where, "problem", "an object", object);
  // Added in 1.1: absent from 1.0 reports.
  if (r.contains("expected_accuracy"))
    require(check, r, where, "expected_accuracy", "fp32 or reduced", [](const json& v) {
      return v.is_string() && (v == "fp32" || v == "reduced");
    });
  if (r.contains("prepack_ms"))
    require(check, r, where, "prepack_ms", "a number or null",
            [](const json& v) { return v.is_null() || v.is_number(); });
  require(check, r, where, "timing", "an object or null",
          [](const json& v) { return v.is_null() || v.is_object(); });
  require(check, r, where, "verification", "an object or null",
          [](const json& v) { return v.is_null() || v.is_object(); });
  if (r.contains("problem") && r["problem"].is_object())
    for (const char* key : {"m", "n", "k", "seed"})
      require(check, r["problem"], where + ".problem", key, "an integer",
              [](const json& v) { return v.is_number_integer(); });
  if (r.contains("timing") && r["timing"].is_object()) {
    const json& t = r["timing"];
    require(check, t, where + ".timing", "samples_ms", "an array of numbers", [](const json& v) {
      if (!v.is_array() || v.empty()) return false;
      for (const json& s : v)
        if (!s.is_number()) return false;
      return true;
    });
    for (const char* key : {"median_ms", "mean_ms", "min_ms", "max_ms", "stdev_ms"})
      require(check, t, where + ".timing", key, "a number", is_number);
  }
  if (r.contains("verification") && r["verification"].is_object()) {
    const json& v = r["verification"];
    for (const char* key : {"checked", "mismatches", "nonfinite"})
      require(check, v, where + ".verification", key, "an integer",
              [](const json& x) { return x.is_number_integer(); });
    for (const char* key : {"max_abs", "max_rel"})
      require(check, v, where + ".verification", key, "a number", is_number);
    require(check, v, where + ".verification", "worst", "an object",
            [](const json& x) { return x.is_object(); });
  }
}

}  // namespace

std::optional<SchemaVersion> parse_schema_version(std::string_view text) {
  int parts[3] = {};
  size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    if (i > 0 && (at >= text.size() || text[at++] != '.')) return std::nullopt;
    const size_t start = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    const size_t digits = at - start;
    // 1 to 9 digits (an int holds them), and no leading zero but in "0" itself.
    if (digits == 0 || digits > 9 || (digits > 1 && text[start] == '0')) return std::nullopt;
    for (size_t d = start; d < at; ++d) parts[i] = parts[i] * 10 + (text[d] - '0');
  }
  if (at != text.size()) return std::nullopt;
  return SchemaVersion{parts[0], parts[1], parts[2]};
}

SchemaCheck check_report(const json& report) {
  SchemaCheck check;
  if (!report.is_object()) {
    check.errors.push_back("the report is not a JSON object");
    return check;
  }
  const SchemaVersion ours = *parse_schema_version(kSchemaVersion);
  const std::optional<SchemaVersion> theirs =
      report.contains("schema_version") && report["schema_version"].is_string()
          ? parse_schema_version(report["schema_version"].get<std::string>())
          : std::nullopt;
  if (!theirs) {
    check.errors.push_back(
        "missing or malformed 'schema_version' (MAJOR.MINOR.PATCH; not a mishbench report?)");
    return check;
  }
  if (theirs->major != ours.major) {
    check.errors.push_back(fmt::format("schema version {} is not readable by this build ({})",
                                       report["schema_version"].get<std::string>(), kSchemaVersion));
    return check;
  }
  if (theirs->minor > ours.minor)
    check.warnings.push_back(fmt::format("schema version {} is newer than this build's {}",
                                         report["schema_version"].get<std::string>(),
                                         kSchemaVersion));
  auto object = [](const json& v) { return v.is_object(); };
  require(check, report, "report", "tool", "an object", object);
  require(check, report, "report", "argv", "an array", [](const json& v) { return v.is_array(); });
  require(check, report, "report", "timestamp", "a string", [](const json& v) { return v.is_string(); });
  require(check, report, "report", "host", "an object", object);
  require(check, report, "report", "device", "an object or null",
          [](const json& v) { return v.is_null() || v.is_object(); });
  require(check, report, "report", "settings", "an object", object);
  require(check, report, "report", "problems", "an array", [](const json& v) { return v.is_array(); });
  require(check, report, "report", "results", "an array", [](const json& v) { return v.is_array(); });
  if (report.contains("results") && report["results"].is_array())
    for (size_t i = 0; i < report["results"].size(); ++i)
      check_result(check, report["results"][i], fmt::format("results[{}]", i));
  return check;
}

}  // namespace mish
