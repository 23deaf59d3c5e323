// summarize_report: every field compare reads, checked for type and range before use, so that
// nlohmann's type errors never escape and no sample that is not a positive finite time reaches
// the statistics.
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "reports/compare/report_input.h"
#include "reports/compare/verdict.h"
#include "settings/device_selection.h"
#include "settings/settings.h"

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

  bool flag(const json& value, const std::string& where) const {
    if (!value.is_boolean()) refuse(where, fmt::format("expected true or false, got {}", kind_of(value)));
    return value.get<bool>();
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

bool power_cap_among(const Reader& in, const json& reasons, const std::string& where) {
  if (!reasons.is_array())
    in.refuse(where, fmt::format("expected an array, got {}", kind_of(reasons)));
  bool capped = false;
  for (size_t i = 0; i < reasons.size(); ++i) {
    const std::string reason = in.text(reasons[i], fmt::format("{}[{}]", where, i));
    capped = capped || reason == "sw_power_cap" || reason == "hw_power_brake_slowdown";
  }
  return capped;
}

// timing.clocks: null or absent (no NVML, a host backend, a report before 1.1), or the summary
// of the readings; a median SM clock of 0 counts as not recorded.
std::optional<SampleClocks> read_clocks(const Reader& in, const json& timing,
                                        const std::string& where) {
  if (timing.is_null() || !timing.contains("clocks") || timing["clocks"].is_null()) return {};
  const json& clocks = timing["clocks"];
  if (!clocks.is_object())
    in.refuse(where, fmt::format("expected an object or null, got {}", kind_of(clocks)));
  constexpr uint64_t kMost = std::numeric_limits<uint32_t>::max();
  const uint64_t readings = in.whole(in.field(clocks, where, "readings"), where + ".readings", 1,
                                     kMost);
  const uint64_t median = in.whole(in.field(clocks, where, "sm_mhz_median"),
                                   where + ".sm_mhz_median", 0, kMost);
  const uint64_t throttled = in.whole(in.field(clocks, where, "throttled_samples"),
                                      where + ".throttled_samples", 0, readings);
  const bool capped = power_cap_among(in, in.field(clocks, where, "throttle_reasons"),
                                      where + ".throttle_reasons");
  if (median == 0) return {};
  return SampleClocks{double(median), capped ? double(throttled) / double(readings) : 0.0};
}

// Where each device is and how many hosts there are, for reading results that refer to them.
struct DevicesRead {
  std::vector<ReportDevice> devices;
  std::vector<size_t> host_of;     // per device: its index into `hosts`
  std::vector<std::string> hosts;  // hostnames
};

std::string read_hostname(const Reader& in, const json& host, const std::string& where) {
  if (!host.is_object()) in.refuse(where, fmt::format("expected an object, got {}", kind_of(host)));
  if (!host.contains("hostname")) return "";
  if (!host["hostname"].is_string())
    in.refuse(where + ".hostname", fmt::format("expected a string, got {}",
                                               kind_of(host["hostname"])));
  return host["hostname"].get<std::string>();
}

ReportDevice read_device(const Reader& in, const json& device, const std::string& where) {
  if (!device.is_object())
    in.refuse(where, fmt::format("expected an object, got {}", kind_of(device)));
  ReportDevice d;
  d.name = device.contains("name") ? in.text(device["name"], where + ".name") : "unknown";
  if (device.contains("ordinal"))
    d.ordinal = static_cast<int64_t>(
        in.whole(device["ordinal"], where + ".ordinal", 0, kMaxDeviceIndex));
  if (device.contains("uuid")) d.uuid = in.text(device["uuid"], where + ".uuid");
  return d;
}

// A 1.3 report lists its hosts and devices; an older one names its one device, if any.
DevicesRead read_devices(const Reader& in, const json& report) {
  DevicesRead read;
  const json& device = in.field(report, "report", "device");
  if (!device.is_null() && !device.is_object())
    in.refuse("device", fmt::format("expected an object or null, got {}", kind_of(device)));
  if (!report.contains("devices")) {
    read.hosts.push_back(report.contains("host") ? read_hostname(in, report["host"], "host") : "");
    if (!device.is_null()) {
      read.devices.push_back(read_device(in, device, "device"));
      read.host_of.push_back(0);
    }
    return read;
  }
  const json& hosts = in.field(report, "report", "hosts");
  if (!hosts.is_array() || hosts.empty())
    in.refuse("hosts", fmt::format("expected a non-empty array, got {}", kind_of(hosts)));
  for (size_t i = 0; i < hosts.size(); ++i)
    read.hosts.push_back(read_hostname(in, hosts[i], fmt::format("hosts[{}]", i)));
  const json& devices = report["devices"];
  if (!devices.is_array())
    in.refuse("devices", fmt::format("expected an array, got {}", kind_of(devices)));
  for (size_t i = 0; i < devices.size(); ++i) {
    const std::string where = fmt::format("devices[{}]", i);
    read.devices.push_back(read_device(in, devices[i], where));
    read.host_of.push_back(devices[i].contains("host_index")
                               ? in.whole(devices[i]["host_index"], where + ".host_index", 0,
                                          read.hosts.size() - 1)
                               : 0);
  }
  return read;
}

ReportResult read_result(const Reader& in, const json& result, const std::string& where,
                         const DevicesRead& devices) {
  if (!result.is_object())
    in.refuse(where, fmt::format("expected an object, got {}", kind_of(result)));
  ReportResult r;
  r.backend = in.text(in.field(result, where, "backend"), where + ".backend");
  r.problem = read_problem(in, in.field(result, where, "problem"), where + ".problem");
  r.status = in.text(in.field(result, where, "status"), where + ".status");
  if (r.status != "ok" && r.status != "skipped" && !failing_status(r.status))
    in.refuse(where + ".status",
              fmt::format("'{}' is not ok, mismatch, skipped, error or implausible",
                          for_terminal(r.status)));
  r.samples_ms = read_samples(in, in.field(result, where, "timing"), where + ".timing");
  if (result.contains("honesty") && result["honesty"].is_object() &&
      result["honesty"].contains("shared_gpu"))
    r.shared_gpu = in.flag(result["honesty"]["shared_gpu"], where + ".honesty.shared_gpu");
  r.clocks = read_clocks(in, result["timing"], where + ".timing.clocks");
  r.host = result.contains("host_index")
               ? in.whole(result["host_index"], where + ".host_index", 0, devices.hosts.size() - 1)
               : 0;
  const json* index = result.contains("device_index") ? &result["device_index"] : nullptr;
  r.on_host = index != nullptr && index->is_null();
  if (index != nullptr && !r.on_host) {
    if (devices.devices.empty())
      in.refuse(where + ".device_index", "refers to a device, but the report lists none");
    r.device = in.whole(*index, where + ".device_index", 0, devices.devices.size() - 1);
    if (devices.host_of[*r.device] != r.host)
      in.refuse(where + ".device_index", "refers to a device of another host");
  } else {
    for (size_t d = 0; d < devices.devices.size() && !r.device; ++d)
      if (devices.host_of[d] == r.host) r.device = d;
  }
  return r;
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
  summary.label = std::string(label_text);
  const DevicesRead devices = read_devices(in, report);
  summary.devices = devices.devices;
  summary.hosts = devices.hosts;

  const json& settings = in.field(report, "report", "settings");
  if (!settings.is_object())
    in.refuse("settings", fmt::format("expected an object, got {}", kind_of(settings)));
  for (const std::string& key : report_keys_of(&Setting::compare_notes))
    summary.settings[key] = settings.contains(key) ? settings[key].dump() : "null";

  const json& results = in.field(report, "report", "results");
  if (!results.is_array())
    in.refuse("results", fmt::format("expected an array, got {}", kind_of(results)));
  if (results.empty()) in.refuse("results", "is empty; there is nothing to compare");
  // One result per backend, problem, host and device (a host backend's: its host's first).
  std::map<std::tuple<ProblemKey, std::string, size_t, std::optional<size_t>>, size_t> first_seen;
  const bool several = summary.devices.size() > 1;
  for (size_t i = 0; i < results.size(); ++i) {
    const std::string where = fmt::format("results[{}]", i);
    ReportResult r = read_result(in, results[i], where, devices);
    const auto [seen, fresh] =
        first_seen.emplace(std::make_tuple(r.problem, r.backend, r.host, r.device), i);
    if (!fresh) {
      std::string on;  // where, when the report has several devices or hosts
      if (several && r.device) on = fmt::format(" on devices[{}]", *r.device);
      if (on.empty() && summary.hosts.size() > 1) on = fmt::format(" on hosts[{}]", r.host);
      in.refuse(where, fmt::format("repeats backend '{}' on problem {}{} (results[{}]); a report "
                                   "has one result per backend and problem{}",
                                   for_terminal(r.backend), for_terminal(label(r.problem)), on,
                                   seen->second, several ? " on each device" : ""));
    }
    summary.results.push_back(std::move(r));
  }
  return summary;
}

}  // namespace mish
