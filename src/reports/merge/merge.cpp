#include "reports/merge/merge.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/common/version.h"
#include "reports/compare/report_input.h"
#include "reports/report/schema.h"
#include "reports/report/timestamp.h"
#include "settings/settings.h"

namespace mish {
namespace {

using nlohmann::json;

constexpr size_t kMessageLimit = 300;

[[noreturn]] void refuse(const MergeInput& input, const std::string& problem) {
  throw UsageError(fmt::format("'{}': {}", for_terminal(input.label, kPathEchoLimit), problem));
}

const json& array_at(const MergeInput& input, const json& object, const char* key) {
  if (!object.contains(key) || !object[key].is_array())
    refuse(input, fmt::format("'{}' must be an array", key));
  return object[key];
}

// An index below `limit` at object[key]; `where` names it in messages.
size_t index_at(const MergeInput& input, const json& object, const char* key, size_t limit,
                const std::string& where) {
  const bool valid = object.is_object() && object.contains(key) &&
                     object[key].is_number_integer() && object[key].get<int64_t>() >= 0 &&
                     object[key].get<uint64_t>() < limit;
  if (!valid) refuse(input, fmt::format("{}.{} must be an index below {}", where, key, limit));
  return object[key].get<size_t>();
}

// The checks merge needs beyond compare's: the version, and every index it shifts.
void check_input(const MergeInput& input) {
  const json& r = input.report;
  const std::string version = r["schema_version"].get<std::string>();
  // 1.3 added the devices and hosts every index below refers to.
  constexpr int kFirstMergeableMinor = 3;
  const std::optional<SchemaVersion> parsed = parse_schema_version(version);
  if (!parsed)
    refuse(input, fmt::format("malformed 'schema_version' {} (MAJOR.MINOR.PATCH)",
                              for_terminal(shortened(version, kMessageLimit))));
  const int ours = parse_schema_version(kSchemaVersion)->minor, theirs = parsed->minor;
  if (theirs < kFirstMergeableMinor)
    refuse(input, fmt::format("schema {} does not say which device each result ran on; merge "
                              "takes 1.3 reports and newer: run it again with this mishbench",
                              for_terminal(version)));
  if (theirs > ours)
    refuse(input, fmt::format("schema {} is newer than this build's {}; merge it with the "
                              "mishbench that wrote it",
                              for_terminal(version), kSchemaVersion));
  const json& hosts = array_at(input, r, "hosts");
  if (hosts.empty()) refuse(input, "'hosts' is empty");
  const json& devices = array_at(input, r, "devices");
  for (size_t i = 0; i < devices.size(); ++i) {
    const std::string where = fmt::format("devices[{}]", i);
    index_at(input, devices[i], "host_index", hosts.size(), where);
    if (!devices[i].contains("uuid") || !devices[i]["uuid"].is_string())
      refuse(input, where + ".uuid must be a string");
  }
  const json& rows = array_at(input, r, "node_summary");
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string where = fmt::format("node_summary[{}]", i);
    index_at(input, rows[i], "host_index", hosts.size(), where);
    const json& standings = array_at(input, rows[i], "devices");
    for (size_t d = 0; d < standings.size(); ++d)
      index_at(input, standings[d], "device_index", devices.size(),
               fmt::format("{}.devices[{}]", where, d));
  }
  if (!r.contains("merged_from")) refuse(input, "missing 'merged_from'");
  if (!r["merged_from"].is_null()) {
    const json& sources = array_at(input, r, "merged_from");
    for (size_t i = 0; i < sources.size(); ++i)
      index_at(input, sources[i], "host_index", hosts.size(), fmt::format("merged_from[{}]", i));
  }
}

std::string problems_text(const std::set<ProblemKey>& problems) {
  std::vector<std::string> labels;
  for (const ProblemKey& p : problems) labels.push_back(label(p));
  return shortened(fmt::format("{}", fmt::join(labels, ", ")), kMessageLimit);
}

// Same problems and the same measurement settings as the first input.
void check_alike(const MergeInput& first, const ReportSummary& first_summary,
                 const MergeInput& input, const ReportSummary& summary) {
  std::set<ProblemKey> theirs, ours;
  for (const ReportResult& r : first_summary.results) ours.insert(r.problem);
  for (const ReportResult& r : summary.results) theirs.insert(r.problem);
  if (theirs != ours)
    refuse(input, fmt::format("its problems ({}) are not those of '{}' ({}); merge reports of the "
                              "same problems",
                              for_terminal(problems_text(theirs), kMessageLimit),
                              for_terminal(first.label, kPathEchoLimit),
                              for_terminal(problems_text(ours), kMessageLimit)));
  const json& settings = input.report["settings"];
  const json& first_settings = first.report["settings"];
  for (const std::string& key : report_keys_of(&Setting::must_agree_to_merge)) {
    const json mine = settings.value(key, json(nullptr));
    const json reference = first_settings.value(key, json(nullptr));
    if (mine != reference)
      refuse(input, fmt::format("setting '{}' is {}, but {} in '{}': the timings or verdicts "
                                "would not mean the same; merge reports of the same settings",
                                key, for_terminal(shortened(mine.dump(), kMessageLimit)),
                                for_terminal(shortened(reference.dump(), kMessageLimit)),
                                for_terminal(first.label, kPathEchoLimit)));
  }
}

// The input's own record for merged_from: a run's report is one source, a merged report brings
// its sources along.
json sources_of(const json& report, size_t host_offset) {
  json sources = json::array();
  if (report["merged_from"].is_array()) {
    for (json source : report["merged_from"]) {
      source["host_index"] = source["host_index"].get<size_t>() + host_offset;
      sources.push_back(std::move(source));
    }
    return sources;
  }
  sources.push_back({{"schema_version", report["schema_version"]},
                     {"tool", report["tool"]},
                     {"argv", report["argv"]},
                     {"timestamp", report["timestamp"]},
                     {"host_index", host_offset},
                     {"settings", report["settings"]}});
  return sources;
}

}  // namespace

json merge_reports(const std::vector<MergeInput>& inputs, const std::vector<std::string>& argv) {
  if (inputs.empty()) throw UsageError("merge needs at least one report");
  std::vector<ReportSummary> summaries;
  for (const MergeInput& input : inputs) {
    check_input(input);
    summaries.push_back(summarize_report(input.report, for_terminal(input.label, kPathEchoLimit)));
    check_alike(inputs.front(), summaries.front(), input, summaries.back());
  }
  std::map<std::string, std::string> uuid_seen;  // uuid -> the input it came from
  for (const MergeInput& input : inputs)
    for (const json& device : input.report["devices"]) {
      const std::string uuid = device["uuid"].get<std::string>();
      const auto [seen, fresh] = uuid_seen.emplace(uuid, input.label);
      if (!fresh)
        refuse(input, fmt::format("device {} is in '{}' too; merge each device's results once",
                                  for_terminal(uuid), for_terminal(seen->second, kPathEchoLimit)));
    }

  // A host backend's results are its host's (compare pairs them by the host's name), as a
  // device's are the device's: each once.
  std::map<std::tuple<std::string, std::string, ProblemKey>, std::string> host_result_seen;
  for (size_t i = 0; i < inputs.size(); ++i)
    for (const ReportResult& r : summaries[i].results) {
      if (!r.on_host) continue;
      const std::string& host = summaries[i].hosts.at(r.host);
      const auto [seen, fresh] =
          host_result_seen.emplace(std::make_tuple(host, r.backend, r.problem), inputs[i].label);
      if (!fresh)
        refuse(inputs[i],
               fmt::format("host backend '{}' on problem {} of host '{}' is in '{}' too; merge "
                           "each host's results once",
                           for_terminal(r.backend), for_terminal(label(r.problem)),
                           for_terminal(host), for_terminal(seen->second, kPathEchoLimit)));
    }

  const json& first = inputs.front().report;
  json merged;
  merged["schema_version"] = kSchemaVersion;
  merged["tool"] = {{"name", "mishbench"}, {"version", tool_version()}, {"git_sha", git_sha()}};
  merged["argv"] = argv;
  merged["timestamp"] = utc_timestamp();
  merged["settings"] = first["settings"];
  merged["problems"] = first["problems"];
  merged["hosts"] = json::array();
  merged["devices"] = json::array();
  merged["results"] = json::array();
  merged["node_summary"] = json::array();
  merged["merged_from"] = json::array();
  for (const MergeInput& input : inputs) {
    const json& r = input.report;
    const size_t host_offset = merged["hosts"].size();
    const size_t device_offset = merged["devices"].size();
    const auto shifted = [](json& object, const char* key, size_t offset) {
      if (!object[key].is_null()) object[key] = object[key].get<size_t>() + offset;
    };
    for (const json& host : r["hosts"]) merged["hosts"].push_back(host);
    for (json device : r["devices"]) {
      shifted(device, "host_index", host_offset);
      merged["devices"].push_back(std::move(device));
    }
    for (json result : r["results"]) {
      // summarize_report checked both indices (a report before 1.3 is refused above).
      result["host_index"] = result.value("host_index", size_t(0)) + host_offset;
      if (!result.contains("device_index")) result["device_index"] = nullptr;
      shifted(result, "device_index", device_offset);
      merged["results"].push_back(std::move(result));
    }
    for (json row : r["node_summary"]) {
      shifted(row, "host_index", host_offset);
      for (json& standing : row["devices"]) shifted(standing, "device_index", device_offset);
      merged["node_summary"].push_back(std::move(row));
    }
    for (json& source : sources_of(r, host_offset)) merged["merged_from"].push_back(source);
  }
  merged["host"] = merged["hosts"][0];
  merged["device"] = merged["devices"].empty() ? json(nullptr) : merged["devices"][0];
  const SchemaCheck check = check_report(merged);
  if (!check.ok())  // the inputs passed it, so this is merge's own fault
    throw std::logic_error("the merged report fails the schema check: " + check.errors.front());
  return merged;
}

}  // namespace mish
