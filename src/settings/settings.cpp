#include "settings/settings.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>

#include "base/common/comma_list.h"
#include "base/common/decimal.h"
#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/env/cpu_threads.h"
#include "core/timing/stopping.h"

namespace mish {
namespace {

using nlohmann::json;

constexpr int64_t kMaxDimension = std::numeric_limits<int32_t>::max();  // BLAS dimensions are int
constexpr double kMaxSeconds = 86400;  // a day: the longest adaptive limit
constexpr double kMaxTolerance = 1e6;  // far beyond any output of the layer

Setting integer_setting(std::string flag, std::string key, std::string value_name,
                        std::string help, int64_t min, int64_t max) {
  Setting s;
  s.flag = std::move(flag);
  s.key = std::move(key);
  s.value_name = std::move(value_name);
  s.help = std::move(help);
  s.kind = SettingKind::integer;
  s.int_min = min;
  s.int_max = max;
  return s;
}

Setting real_setting(std::string flag, std::string key, std::string help, double min, double max,
                     bool min_open) {
  Setting s;
  s.flag = std::move(flag);
  s.key = std::move(key);
  s.value_name = "X";
  s.help = std::move(help);
  s.kind = SettingKind::real;
  s.real_min = min;
  s.real_max = max;
  s.real_min_open = min_open;
  return s;
}

// Watchdog limits are whole seconds, at least one.
std::chrono::seconds whole_seconds(double seconds) {
  return std::chrono::seconds(std::max<long long>(1, std::llround(seconds)));
}

// How the report and the help show a stored value.
json shown(int value) { return value; }
json shown(double value) { return value; }
json shown(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

// Settings stored where `field(config)` says, for const and non-const configs alike (a generic
// lambda returning a reference), so that one accessor both stores and shows the value.
template <typename Field>
Setting count_setting(std::string flag, std::string report_key, std::string help, int64_t min,
                      int64_t max, Field field) {
  std::string key = flag.substr(2);
  Setting s = integer_setting(std::move(flag), std::move(key), "INT", std::move(help), min, max);
  s.report_key = std::move(report_key);
  s.store = [field](RunConfig& c, const SettingValue& v, const std::string&) {
    field(c) = static_cast<int>(std::get<int64_t>(v));
  };
  s.show = [field](const RunConfig& c) { return shown(field(c)); };
  return s;
}

template <typename Field>
Setting number_setting(std::string flag, std::string key, std::string report_key,
                       std::string value_name, std::string help, double min, double max,
                       bool min_open, Field field) {
  Setting s = real_setting(std::move(flag), std::move(key), std::move(help), min, max, min_open);
  s.report_key = std::move(report_key);
  s.value_name = std::move(value_name);
  s.store = [field](RunConfig& c, const SettingValue& v, const std::string&) {
    field(c) = std::get<double>(v);
  };
  s.show = [field](const RunConfig& c) { return shown(field(c)); };
  return s;
}

// A watchdog limit in whole seconds (at least one), given as a number of seconds.
template <typename Field>
Setting limit_setting(std::string flag, std::string key, std::string help, Field field) {
  std::string report_key = key + "_s";
  Setting s = real_setting(std::move(flag), std::move(key), std::move(help), 0, kMaxSeconds, true);
  s.value_name = "S";
  s.report_key = std::move(report_key);
  s.store = [field](RunConfig& c, const SettingValue& v, const std::string&) {
    field(c) = whole_seconds(std::get<double>(v));
  };
  s.show = [field](const RunConfig& c) { return json(field(c).count()); };
  return s;
}

// One of `choices`, stored as what `parse` makes of it and shown as its name again.
template <typename Field, typename Value>
Setting choice_setting(std::string flag, std::string key, std::string report_key, std::string help,
                       std::vector<std::string> choices, Field field,
                       Value (*parse)(const std::string&)) {
  Setting s;
  s.flag = std::move(flag);
  s.key = std::move(key);
  s.report_key = std::move(report_key);
  s.value_name = "MODE";
  s.help = std::move(help);
  s.kind = SettingKind::choice;
  s.choices = std::move(choices);
  s.store = [field, parse](RunConfig& c, const SettingValue& v, const std::string&) {
    field(c) = parse(std::get<std::string>(v));
  };
  s.show = [field](const RunConfig& c) { return json(to_string(field(c))); };
  return s;
}

// A switch stored in `field` (a member pointer or an accessor like count_setting's), reported
// under its config key.
template <typename Field>
Setting switch_setting(std::string flag, std::string key, std::string help, Field field) {
  Setting s;
  s.flag = std::move(flag);
  s.key = std::move(key);
  s.report_key = s.key;
  s.help = std::move(help);
  s.kind = SettingKind::boolean;
  s.store = [field](RunConfig& c, const SettingValue& v, const std::string&) {
    std::invoke(field, c) = std::get<bool>(v);
  };
  s.show = [field](const RunConfig& c) { return json(std::invoke(field, c)); };
  return s;
}

// A setting that changes what a time or a verdict means: reports merge only when they agree on it.
Setting agreed_for_merge(Setting s) {
  s.must_agree_to_merge = true;
  return s;
}

// A setting compare notes when the two reports differ in it.
Setting noted_by_compare(Setting s) {
  s.compare_notes = true;
  return s;
}

// A repeatable path flag whose values collect in `field` (config key: a string or an array);
// `what` names one path in the message for an empty one.
Setting paths_setting(std::string flag, std::string key, std::string value_name, std::string help,
                      const char* what, std::vector<std::string> RunConfig::*field) {
  Setting s;
  s.flag = std::move(flag);
  s.key = std::move(key);
  s.report_key = s.key;
  s.value_name = std::move(value_name);
  s.help = std::move(help);
  s.kind = SettingKind::paths;
  s.repeatable = true;
  s.store = [what, field](RunConfig& c, const SettingValue& v, const std::string& where) {
    for (const std::string& path : std::get<std::vector<std::string>>(v)) {
      if (path.empty()) throw UsageError(fmt::format("{}: a {} path is empty", where, what));
      // A file name cannot hold a NUL byte: the system would read the path only up to it.
      if (path.find('\0') != std::string::npos)
        throw UsageError(fmt::format("{}: the {} path '{}' holds a NUL byte", where, what,
                                     for_terminal(path, kPathEchoLimit)));
      (c.*field).push_back(path);
    }
  };
  s.show = [field](const RunConfig& c) { return json(c.*field); };
  return s;
}


// An output's path, flag only (no config key, not reported). An empty one is refused rather
// than read as "no output", which would lose what the run made; `what` is "file" or "folder".
Setting output_setting(std::string flag, std::string value_name, std::string help,
                       const char* what, std::string RunConfig::*field) {
  Setting s;
  s.flag = std::move(flag);
  s.value_name = std::move(value_name);
  s.help = std::move(help);
  s.store = [what, field](RunConfig& c, const SettingValue& v, const std::string& where) {
    c.*field = std::get<std::string>(v);
    if ((c.*field).empty())
      throw UsageError(fmt::format("{} '': the {} name is empty", where, what));
  };
  return s;
}

// A per-problem size: the flag sets it in every problem.
Setting dimension_setting(const char* name, std::string help, int64_t Problem::*field) {
  Setting s = integer_setting(fmt::format("--{}", name), name, "INT", std::move(help), 1,
                              kMaxDimension);
  s.per_problem = true;
  s.store_problem = [field](Problem& p, const SettingValue& v) { p.*field = std::get<int64_t>(v); };
  s.show = [field](const RunConfig& c) { return json(c.problems.at(0).*field); };
  return s;
}

// "NAME.KEY=VALUE" (VALUE as JSON, else as a string) into config.backend_options.
void add_backend_option(const std::string& assignment, const std::string& where,
                        RunConfig& config) {
  const auto dot = assignment.find('.');
  const auto equals = assignment.find('=');
  if (dot == std::string::npos || equals == std::string::npos || dot == 0 || equals < dot + 2)
    throw UsageError(fmt::format("{} '{}' must look like NAME.KEY=VALUE, e.g. fp16x3.chunks=4",
                                 where, for_terminal(assignment)));
  const std::string backend = assignment.substr(0, dot);
  const std::string key = assignment.substr(dot + 1, equals - dot - 1);
  const std::string text = assignment.substr(equals + 1);
  json value = json::parse(text, nullptr, false);
  if (value.is_discarded()) value = text;
  config.backend_options[backend][key] = value;
}

// What runs: the backends and the problem.
void add_problem_settings(std::vector<Setting>& table) {
  Setting backends;
  backends.flag = "--backend";
  backends.alias = "--backends";
  backends.key = "backends";
  backends.value_name = "NAMES";
  backends.help = "'all' or a comma list of backends, e.g. separate,fused";
  backends.kind = SettingKind::names;
  backends.store = [](RunConfig& c, const SettingValue& v, const std::string& where) {
    c.backends = std::get<std::vector<std::string>>(v);
    if (c.backends.empty()) throw UsageError(fmt::format("{} needs at least one name", where));
    for (const std::string& name : c.backends)
      if (name.empty()) throw UsageError(fmt::format("{} has an empty name in its list", where));
  };
  backends.show = [](const RunConfig& c) { return json(fmt::format("{}", fmt::join(c.backends, ","))); };
  table.push_back(backends);

  table.push_back(dimension_setting("m", "Rows of x and y", &Problem::m));
  table.push_back(dimension_setting("n", "Output features: rows of W, columns of y", &Problem::n));
  table.push_back(dimension_setting("k", "Input features: columns of x and W", &Problem::k));

  Setting seed;
  seed.flag = "--seed";
  seed.key = "seed";
  seed.value_name = "UINT";
  seed.help = "Input generator seed, 0 to 2^64-1";
  seed.kind = SettingKind::unsigned_;
  seed.uint_max = std::numeric_limits<uint64_t>::max();
  seed.per_problem = true;
  seed.store_problem = [](Problem& p, const SettingValue& v) { p.seed = std::get<uint64_t>(v); };
  seed.show = [](const RunConfig& c) { return json(c.problems.at(0).seed); };
  table.push_back(seed);

  Setting distribution;
  distribution.flag = "--distribution";
  distribution.key = "distribution";
  distribution.value_name = "NAME";
  distribution.help = "Input distribution (docs/methodology.md)";
  distribution.kind = SettingKind::choice;
  distribution.choices = distribution_names();
  distribution.per_problem = true;
  distribution.store_problem = [](Problem& p, const SettingValue& v) {
    p.distribution = parse_distribution(std::get<std::string>(v));
  };
  distribution.show = [](const RunConfig& c) {
    return json(to_string(c.problems.at(0).distribution));
  };
  table.push_back(distribution);
}

// How a series is sampled and checked, and how every call is made.
void add_measurement_settings(std::vector<Setting>& table) {
  table.push_back(agreed_for_merge(noted_by_compare(
      count_setting("--warmup", "warmup", "Untimed runs before sampling", 0, kMaxAdaptiveSamples,
                    [](auto& c) -> auto& { return c.sampling.warmup; }))));
  table.push_back(agreed_for_merge(noted_by_compare(count_setting(
      "--iters", "iters",
      "Timed samples per backend; with --min-time, --max-noise or --timeout, the minimum count", 1,
      kMaxAdaptiveSamples, [](auto& c) -> auto& { return c.sampling.iters; }))));
  table.push_back(agreed_for_merge(number_setting(
      "--min-time", "min_time", "min_time_s", "S",
      "Adaptive: sample until the timed samples add up to at least S seconds", 0, kMaxSeconds,
      false, [](auto& c) -> auto& { return c.sampling.min_time_s; })));
  Setting max_noise = number_setting(
      "--max-noise", "max_noise", "max_noise", "F",
      "Adaptive: sample until the median's 95% CI is narrower than F x median; F a fraction "
      "(0.005) or a percent (0.5%)",
      0, 1, true, [](auto& c) -> auto& { return c.sampling.max_noise; });
  max_noise.kind = SettingKind::fraction;
  table.push_back(agreed_for_merge(max_noise));
  table.push_back(agreed_for_merge(number_setting(
      "--timeout", "timeout", "timeout_s", "S",
      "Adaptive: stop sampling a series after S seconds of wall time, whatever else", 0,
      kMaxSeconds, true, [](auto& c) -> auto& { return c.sampling.timeout_s; })));
  table.push_back(agreed_for_merge(number_setting(
      "--atol", "atol", "atol", "X", "Absolute tolerance", 0, kMaxTolerance, false,
      [](auto& c) -> auto& { return c.tolerance.atol; })));
  table.push_back(agreed_for_merge(number_setting(
      "--rtol", "rtol", "rtol", "X", "Relative tolerance", 0, kMaxTolerance, false,
      [](auto& c) -> auto& { return c.tolerance.rtol; })));

  table.push_back(agreed_for_merge(noted_by_compare(choice_setting(
      "--l2", "l2", "l2", "flush: cold L2 before every sample; hot: back to back",
      {"flush", "hot"}, [](auto& c) -> auto& { return c.execution.l2; }, parse_l2_mode))));

  table.push_back(agreed_for_merge(switch_setting(
      "--include-prepack", "include_prepack",
      "Time weight preparation (splitting/scaling W) inside every iteration",
      [](auto& c) -> auto& { return c.execution.include_prepack; })));
  table.push_back(agreed_for_merge(noted_by_compare(switch_setting(
      "--graph", "graph", "Also time each device backend as CUDA-graph replays (reported apart)",
      &RunConfig::graph))));
}

// The backends' options, backends from outside the tool, and the workers they run in.
void add_backend_settings(std::vector<Setting>& table) {
  Setting options;
  options.flag = "--backend-option";
  options.key = "backend_options";
  options.report_key = "backend_options";
  options.value_name = "NAME.KEY=VALUE";
  options.help = "A backend's option, repeatable, e.g. fp16x3.chunks=4";
  options.kind = SettingKind::text;
  options.repeatable = true;
  options.store = [](RunConfig& c, const SettingValue& v, const std::string& where) {
    add_backend_option(std::get<std::string>(v), where, c);
  };
  options.store_json = [](RunConfig& c, const json& value, const std::string& where) {
    if (!value.is_object())
      throw UsageError(fmt::format("{} must be an object like {{\"fp16x3\": {{\"chunks\": 4}}}}",
                                   where));
    for (const auto& item : value.items()) {
      if (!item.value().is_object())
        throw UsageError(fmt::format("{}.{} must be an object", where, for_terminal(item.key())));
      c.backend_options[item.key()].update(item.value());
    }
  };
  options.show = [](const RunConfig& c) { return c.backend_options; };
  table.push_back(agreed_for_merge(options));

  Setting threads = integer_setting("--threads", "threads", "N",
                                    "Threads of the cpu backend (OpenBLAS and OpenMP), default "
                                    "half the host's; sets backend option cpu.threads",
                                    1, kMaxCpuThreads);
  threads.report_key = "threads";
  threads.store = [](RunConfig& c, const SettingValue& v, const std::string&) {
    c.backend_options["cpu"]["threads"] = std::get<int64_t>(v);
  };
  threads.show = [](const RunConfig& c) {
    return c.backend_options.value("cpu", json::object()).value("threads", default_cpu_threads());
  };
  table.push_back(noted_by_compare(threads));

  table.push_back(paths_setting(
      "--plugin", "plugins", "PATH",
      "Load backends from a plugin library (include/mishbench/plugin.h), repeatable", "plugin",
      &RunConfig::plugins));
  table.push_back(paths_setting(
      "--solution", "solutions", "FILE",
      "A Python solution file (class ModelNew, docs/solutions.md) as a backend, repeatable",
      "solution", &RunConfig::solutions));

  Setting python;
  python.flag = "--python";
  python.key = "python";
  python.report_key = "python";
  python.value_name = "PATH";
  python.help = "The Python that runs solutions (a virtualenv's, for its torch)";
  python.store = [](RunConfig& c, const SettingValue& v, const std::string& where) {
    c.python = std::get<std::string>(v);
    if (c.python.empty()) throw UsageError(fmt::format("{} is empty; give a Python's path", where));
  };
  python.show = [](const RunConfig& c) { return json(c.python.empty() ? "python3" : c.python); };
  table.push_back(python);

  table.push_back(choice_setting(
      "--isolate", "isolate", "isolate",
      "Worker processes: auto (plugins and solutions), all (every backend) or none",
      {"auto", "all", "none"}, [](auto& c) -> auto& { return c.isolate; }, parse_isolation));

  table.push_back(limit_setting(
      "--setup-timeout", "setup_timeout",
      "Kill a worker that takes longer than S seconds to start and set its backend up",
      [](auto& c) -> auto& { return c.worker_limits.setup; }));
  table.push_back(limit_setting(
      "--worker-timeout", "worker_timeout",
      "Kill a worker that stays silent for S seconds in any other step",
      [](auto& c) -> auto& { return c.worker_limits.step; }));
}

// The CUDA devices the device backends run on.
void add_device_settings(std::vector<Setting>& table) {
  Setting devices;
  devices.flag = "--devices";
  devices.key = "devices";
  devices.report_key = "devices";
  devices.value_name = "LIST";
  devices.help = "CUDA devices to run the device backends on: indices such as 0,2, or 'all'";
  devices.kind = SettingKind::text;
  devices.store = [](RunConfig& c, const SettingValue& v, const std::string& where) {
    c.devices = parse_device_selection(std::get<std::string>(v), where);
  };
  // A config file may also give the indices as numbers: [0, 2].
  devices.store_json = [](RunConfig& c, const json& value, const std::string& where) {
    if (value.is_string()) {
      c.devices = parse_device_selection(value.get<std::string>(), where);
      return;
    }
    const auto wrong = [&] {
      return UsageError(fmt::format("{} must be \"all\", a string like \"0,2\" or an array of "
                                    "device indices, got {}",
                                    where, for_terminal(value.dump())));
    };
    if (!value.is_array()) throw wrong();
    std::vector<int64_t> indices;
    for (const json& item : value) {
      if (!item.is_number_integer()) throw wrong();
      constexpr int64_t kLargest = std::numeric_limits<int64_t>::max();  // out of range anyway
      indices.push_back(item.is_number_unsigned() && item.get<uint64_t>() > uint64_t(kLargest)
                            ? kLargest
                            : item.get<int64_t>());
    }
    c.devices = device_selection_from(indices, where);
  };
  devices.show = [](const RunConfig& c) { return json(to_string(c.devices)); };
  table.push_back(devices);

  table.push_back(switch_setting(
      "--devices-parallel", "devices_parallel",
      "With several devices, run them all at once (a busy node) instead of one after another",
      &RunConfig::devices_parallel));
}

// What the run writes.
void add_output_settings(std::vector<Setting>& table) {
  table.push_back(output_setting(
      "--json", "FILE",
      "Write the JSON report to FILE ('-': standard output; the table then goes to stderr)",
      "file", &RunConfig::json_path));
  table.push_back(output_setting(
      "--csv", "FILE", "Also write the results as CSV to FILE, one row per result ('-': stdout)",
      "file", &RunConfig::csv_path));
  table.push_back(output_setting(
      "--markdown", "FILE",
      "Also append the results as a Markdown table to FILE, e.g. $GITHUB_STEP_SUMMARY ('-': "
      "stdout)",
      "file", &RunConfig::markdown_path));
  table.push_back(output_setting("--dump", "DIR",
                                 "Write x, W, b, the reference and each y as .npy under DIR",
                                 "folder", &RunConfig::dump_dir));

  Setting quiet = switch_setting("--quiet", "", "Print only the result table", &RunConfig::quiet);
  quiet.alias = "-q";
  quiet.report_key.clear();
  quiet.show = nullptr;
  table.push_back(quiet);
}

// The table, in help order.
std::vector<Setting> make_settings() {
  std::vector<Setting> table;
  add_problem_settings(table);
  add_measurement_settings(table);
  add_backend_settings(table);
  add_device_settings(table);
  add_output_settings(table);
  return table;
}

std::string expected_choices(const Setting& s) {
  return fmt::format("choose one of: {}", fmt::join(s.choices, ", "));
}

SettingValue parse_text(const Setting& s, const std::string& text, const std::string& where) {
  switch (s.kind) {
    case SettingKind::integer:
      return parse_int(text, where, s.int_min, s.int_max);
    case SettingKind::unsigned_:
      return parse_uint(text, where, 0, s.uint_max);
    case SettingKind::real:
      return parse_real(text, where, s.real_min, s.real_max, s.real_min_open);
    case SettingKind::fraction:
      return parse_fraction(text, where);
    case SettingKind::choice:
      if (std::find(s.choices.begin(), s.choices.end(), text) == s.choices.end())
        throw UsageError(fmt::format("{}: unknown value '{}'; {}", where, for_terminal(text),
                                     expected_choices(s)));
      return text;
    case SettingKind::boolean:
      if (text == "true") return true;
      if (text == "false") return false;
      throw UsageError(fmt::format("{}: '{}' is not true or false", where, for_terminal(text)));
    case SettingKind::names: {
      std::vector<std::string> names;  // spaces around a name are not part of it
      for (const std::string_view part : split_at_commas(text)) {
        const auto first = part.find_first_not_of(" \t");
        const auto last = part.find_last_not_of(" \t");
        names.emplace_back(first == std::string_view::npos ? std::string_view()
                                                           : part.substr(first, last - first + 1));
      }
      return names;
    }
    case SettingKind::paths:
      return std::vector<std::string>{text};
    case SettingKind::text:
      break;
  }
  return text;
}

}  // namespace

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = make_settings();
  return table;
}

std::vector<std::string> report_keys_of(bool Setting::*role) {
  std::vector<std::string> keys;
  for (const Setting& s : settings())
    if (s.*role && !s.report_key.empty()) keys.push_back(s.report_key);
  return keys;
}

const Setting* setting_for_flag(std::string_view flag) {
  for (const Setting& s : settings())
    if (!flag.empty() && (s.flag == flag || s.alias == flag)) return &s;
  return nullptr;
}

const Setting* setting_for_key(std::string_view key) {
  for (const Setting& s : settings())
    if (!key.empty() && s.key == key) return &s;
  return nullptr;
}

SettingValue parse_flag_value(const Setting& setting, const std::string& text) {
  return parse_text(setting, text, setting.flag);
}

SettingValue parse_config_value(const Setting& s, const json& value, const std::string& where) {
  const auto wrong_type = [&](const char* expected) {
    return UsageError(fmt::format("{} must be {}, got {}", where, expected,
                                  json_for_terminal(value)));
  };
  switch (s.kind) {
    case SettingKind::integer:
    case SettingKind::unsigned_:
      // The same checks and messages as on the command line, on the number's decimal text.
      if (!value.is_number_integer()) throw wrong_type("an integer");
      return parse_text(s, value.dump(), where);
    case SettingKind::real:
      if (!value.is_number()) throw wrong_type("a number");
      return parse_text(s, value.dump(), where);
    case SettingKind::fraction:  // a number, or the flag's text ("0.5%")
      if (value.is_string()) return parse_text(s, value.get<std::string>(), where);
      if (!value.is_number()) throw wrong_type("a number or a percent such as \"0.5%\"");
      return parse_text(s, value.dump(), where);
    case SettingKind::boolean:
      if (!value.is_boolean()) throw wrong_type("true or false");
      return value.get<bool>();
    case SettingKind::choice:
      if (!value.is_string()) throw wrong_type(("a string; " + expected_choices(s)).c_str());
      return parse_text(s, value.get<std::string>(), where);
    case SettingKind::text:
      if (!value.is_string()) throw wrong_type("a string");
      return value.get<std::string>();
    case SettingKind::paths:
    case SettingKind::names: {
      if (value.is_string()) return parse_text(s, value.get<std::string>(), where);
      if (!value.is_array()) throw wrong_type("a string or an array of strings");
      std::vector<std::string> names;
      for (const json& item : value) {
        if (!item.is_string()) throw wrong_type("a string or an array of strings");
        names.push_back(item.get<std::string>());
      }
      return names;
    }
  }
  throw wrong_type("a value");
}

void apply_setting(const Setting& setting, const SettingValue& value, const std::string& where,
                   RunConfig& config) {
  if (setting.per_problem) {
    for (Problem& problem : config.problems) setting.store_problem(problem, value);
  } else {
    setting.store(config, value, where);
  }
}

json settings_json(const RunConfig& config) {
  json out = json::object();
  for (const Setting& s : settings())
    if (!s.report_key.empty()) out[s.report_key] = s.show(config);
  return out;
}

}  // namespace mish
