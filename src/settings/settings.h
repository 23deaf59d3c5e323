// Every setting of a run, each described once: its flag, config-file key, report key, kind,
// limits and where it is stored. The command line, config files, validation and the report's
// `settings` object are all made from this one table, so a limit or a name cannot drift between
// them. Defaults live in RunConfig and Problem; the help text shows them from there.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "settings/run_config.h"

namespace mish {

// How a setting's value is written and checked.
enum class SettingKind {
  integer,    // decimal, within [int_min, int_max]
  unsigned_,  // decimal, non-negative, within [0, uint_max] (the seed)
  real,       // finite decimal within [real_min, real_max] (min excluded if real_min_open)
  fraction,   // a fraction in (0, 1]: a decimal below 1 or a percent ("0.5%"), parse_fraction
  choice,     // one of `choices`
  boolean,    // a flag without a value on the command line; true/false in a config file
  text,       // a string (a path, a NAME.KEY=VALUE assignment)
  names,      // a comma list on the command line; a string or array of strings in a file
  paths,      // one path per flag (repeatable); a string or array of strings in a file
};

using SettingValue =
    std::variant<bool, int64_t, uint64_t, double, std::string, std::vector<std::string>>;

struct Setting {
  std::string flag;        // "--iters"; empty: config file only
  std::string alias;       // a second spelling of the flag ("--backends"); may be empty
  std::string key;         // config key; empty: command line only
  std::string report_key;  // key in the report's settings; empty: not reported
  std::string value_name;  // "N", "S", "FILE" in the help
  std::string help;
  SettingKind kind = SettingKind::text;
  bool repeatable = false;       // the flag may be given several times (values accumulate)
  bool per_problem = false;      // config key inside each problem object; the flag sets all
  int64_t int_min = 0, int_max = 0;
  uint64_t uint_max = 0;
  double real_min = 0, real_max = 0;
  bool real_min_open = false;
  std::vector<std::string> choices;
  // Stores a checked value (run settings, or per problem). `where` names its source in messages.
  std::function<void(RunConfig&, const SettingValue&, const std::string& where)> store;
  std::function<void(Problem&, const SettingValue&)> store_problem;
  // Stores a config file's raw JSON value for kinds that need more than one shape (backend
  // options as an object); empty: the value is checked as `kind` says.
  std::function<void(RunConfig&, const nlohmann::json&, const std::string& where)> store_json;
  // The value as the report (and the help's default) shows it; empty: not shown.
  std::function<nlohmann::json(const RunConfig&)> show;
  // It changes what a time or a verdict means: reports merge only when they agree on it.
  bool must_agree_to_merge = false;
  // compare notes where its two reports differ in it.
  bool compare_notes = false;
};

// The table, in help order.
const std::vector<Setting>& settings();

// The report keys of the settings that have `role` set (&Setting::must_agree_to_merge,
// &Setting::compare_notes), in table order.
std::vector<std::string> report_keys_of(bool Setting::*role);

// The setting with this flag (or alias) or config key; nullptr if none.
const Setting* setting_for_flag(std::string_view flag);
const Setting* setting_for_key(std::string_view key);

// A value given as text on the command line for `setting`, checked: UsageError naming the flag
// and quoting the text.
SettingValue parse_flag_value(const Setting& setting, const std::string& text);

// A config file's value for `setting`, checked: UsageError naming `where` (file and key).
SettingValue parse_config_value(const Setting& setting, const nlohmann::json& value,
                                const std::string& where);

// Applies a checked value to the config (to every problem for per-problem settings).
void apply_setting(const Setting& setting, const SettingValue& value, const std::string& where,
                   RunConfig& config);

// The report's `settings` object for `config` (the rows with a report key).
nlohmann::json settings_json(const RunConfig& config);

}  // namespace mish
