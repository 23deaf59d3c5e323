#include "exec/worker/protocol.h"
#include "core/problem/problem_json.h"

#include <stdexcept>

namespace mish {
namespace {

using nlohmann::json;

StopReason stop_reason_from(const std::string& name) {
  for (StopReason r : {StopReason::iters, StopReason::converged, StopReason::timeout,
                       StopReason::max_samples})
    if (to_string(r) == name) return r;
  throw std::runtime_error("unknown stop reason '" + name + "'");
}

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::optional<double> optional_double(const json& v) {
  return v.is_null() ? std::nullopt : std::optional<double>(v.get<double>());
}

}  // namespace

template <>
json to_message<Problem>(const Problem& p) {
  return problem_json(p);
}

template <>
Problem from_message<Problem>(const json& m) {
  return problem_from_json(m);
}

template <>
json to_message<BackendInfo>(const BackendInfo& info) {
  return {{"name", info.name},
          {"summary", info.summary},
          {"math_mode", info.math_mode},
          {"accuracy", to_string(info.accuracy)},
          {"placement", to_string(info.placement)},
          {"origin",
           {{"kind", info.origin.kind},
            {"path", info.origin.path},
            {"sha256", info.origin.sha256},
            {"abi_version", info.origin.abi_version},
            {"build_info", info.origin.build_info}}}};
}

template <>
BackendInfo from_message<BackendInfo>(const json& m) {
  BackendInfo info;
  info.name = m.at("name").get<std::string>();
  info.summary = m.at("summary").get<std::string>();
  info.math_mode = m.at("math_mode").get<std::string>();
  info.accuracy = m.at("accuracy") == "reduced" ? Accuracy::reduced : Accuracy::fp32;
  info.placement = m.at("placement") == "host" ? Placement::host : Placement::device;
  const json& origin = m.at("origin");
  info.origin.kind = origin.at("kind").get<std::string>();
  info.origin.path = origin.at("path").get<std::string>();
  info.origin.sha256 = origin.at("sha256").get<std::string>();
  info.origin.abi_version = origin.at("abi_version").get<int>();
  info.origin.build_info = origin.value("build_info", std::string());
  return info;
}

template <>
json to_message<ExecutorSettings>(const ExecutorSettings& s) {
  return {{"l2", to_string(s.l2)}, {"include_prepack", s.include_prepack}};
}

template <>
ExecutorSettings from_message<ExecutorSettings>(const json& m) {
  ExecutorSettings s;
  s.l2 = parse_l2_mode(m.at("l2").get<std::string>());
  s.include_prepack = m.at("include_prepack").get<bool>();
  return s;
}

template <>
json to_message<SampleSettings>(const SampleSettings& s) {
  return {{"warmup", s.warmup},
          {"iters", s.iters},
          {"min_time_s", optional_json(s.min_time_s)},
          {"max_noise", optional_json(s.max_noise)},
          {"timeout_s", optional_json(s.timeout_s)}};
}

template <>
SampleSettings from_message<SampleSettings>(const json& m) {
  SampleSettings s;
  s.warmup = m.at("warmup").get<int>();
  s.iters = m.at("iters").get<int>();
  s.min_time_s = optional_double(m.at("min_time_s"));
  s.max_noise = optional_double(m.at("max_noise"));
  s.timeout_s = optional_double(m.at("timeout_s"));
  return s;
}

template <>
json to_message<CallPlan>(const CallPlan& p) {
  return {{"nonce", p.nonce},
          {"first_call", p.first_call},
          {"main_x_first", p.main_x_first},
          {"record_activity", p.record_activity}};
}

template <>
CallPlan from_message<CallPlan>(const json& m) {
  CallPlan p;
  p.nonce = m.at("nonce").get<uint64_t>();
  p.first_call = m.at("first_call").get<uint64_t>();
  p.main_x_first = m.at("main_x_first").get<bool>();
  p.record_activity = m.at("record_activity").get<bool>();
  return p;
}

namespace {

GpuActivity::Kind activity_kind_from(const std::string& name) {
  if (name == "kernel") return GpuActivity::Kind::kernel;
  if (name == "memcpy") return GpuActivity::Kind::memcpy;
  if (name == "memset") return GpuActivity::Kind::memset;
  throw std::runtime_error("unknown GPU activity kind '" + name + "'");
}

}  // namespace

template <>
json to_message<Sampling>(const Sampling& s) {
  json clocks = json::array();
  for (const std::optional<ClockReading>& c : s.clocks) {
    if (!c) {
      clocks.push_back(nullptr);
      continue;
    }
    clocks.push_back({{"sm_mhz", c->sm_mhz},
                      {"reasons", c->reasons},
                      {"temperature_c", c->temperature_c ? json(*c->temperature_c) : json(nullptr)},
                      {"power_w", optional_json(c->power_w)}});
  }
  json kept = json::array();
  for (const KeptOutput& k : s.kept) kept.push_back({k.call, k.slot});
  json activity = json::array();
  for (const GpuActivity& a : s.activity)
    activity.push_back({to_string(a.kind), a.name, a.stream, a.start_ns, a.end_ns, a.tag});
  return {{"samples_ms", s.samples_ms},
          {"stopped_by", to_string(s.stopped_by)},
          {"clocks", clocks},
          {"gate_timeouts", s.gate_timeouts},
          {"calls", s.calls},
          {"kept", kept},
          {"activity", activity},
          {"timed_stream", s.timed_stream},
          {"activity_note", s.activity_note}};
}

template <>
Sampling from_message<Sampling>(const json& m) {
  Sampling s;
  s.samples_ms = m.at("samples_ms").get<std::vector<double>>();
  s.stopped_by = stop_reason_from(m.at("stopped_by").get<std::string>());
  s.gate_timeouts = m.at("gate_timeouts").get<int>();
  s.calls = m.at("calls").get<uint64_t>();
  for (const json& k : m.at("kept"))
    s.kept.push_back({k.at(0).get<uint64_t>(), k.at(1).get<uint32_t>()});
  for (const json& a : m.at("activity"))
    s.activity.push_back({activity_kind_from(a.at(0).get<std::string>()), a.at(1).get<std::string>(),
                          a.at(2).get<uint32_t>(), a.at(3).get<uint64_t>(),
                          a.at(4).get<uint64_t>(), a.at(5).get<uint64_t>()});
  s.timed_stream = m.at("timed_stream").get<uint32_t>();
  s.activity_note = m.at("activity_note").get<std::string>();
  for (const json& c : m.at("clocks")) {
    if (c.is_null()) {
      s.clocks.emplace_back();
      continue;
    }
    ClockReading r;
    r.sm_mhz = c.at("sm_mhz").get<unsigned>();
    r.reasons = c.at("reasons").get<uint64_t>();
    if (!c.at("temperature_c").is_null()) r.temperature_c = c.at("temperature_c").get<unsigned>();
    r.power_w = optional_double(c.at("power_w"));
    s.clocks.push_back(r);
  }
  return s;
}

template <>
json to_message<SetupReport>(const SetupReport& r) {
  json stages = json::array();
  for (const StageInfo& stage : r.stages)
    stages.push_back({{"name", stage.name},
                      {"kind", stage.kind == StageKind::gemm ? "gemm" : "epilogue"},
                      {"bytes", stage.bytes}});
  return {{"setup_ms", r.setup_ms}, {"prepacks_weights", r.prepacks_weights}, {"stages", stages}};
}

template <>
SetupReport from_message<SetupReport>(const json& m) {
  SetupReport r;
  r.setup_ms = m.at("setup_ms").get<double>();
  r.prepacks_weights = m.at("prepacks_weights").get<bool>();
  for (const json& stage : m.at("stages"))
    r.stages.push_back({stage.at("name").get<std::string>(),
                        stage.at("kind") == "gemm" ? StageKind::gemm : StageKind::epilogue,
                        stage.at("bytes").get<double>()});
  return r;
}

template <>
json to_message<Series>(const Series& series) {
  const char* kind = series.kind == Series::Kind::plain   ? "plain"
                     : series.kind == Series::Kind::stage ? "stage"
                                                          : "graph";
  return {{"kind", kind}, {"stage", series.stage}};
}

template <>
Series from_message<Series>(const json& m) {
  Series series;
  const std::string kind = m.at("kind").get<std::string>();
  series.kind = kind == "stage"   ? Series::Kind::stage
                : kind == "graph" ? Series::Kind::graph
                                  : Series::Kind::plain;
  series.stage = m.at("stage").get<size_t>();
  return series;
}

template <>
json to_message<AuditReading>(const AuditReading& a) {
  return {{"iterations", a.iterations}, {"events_ms", a.events_ms}, {"wall_ms", a.wall_ms}};
}

template <>
AuditReading from_message<AuditReading>(const json& m) {
  return {m.at("iterations").get<int>(), m.at("events_ms").get<double>(),
          m.at("wall_ms").get<double>()};
}

}  // namespace mish
