#include "config/run_config.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/errors.h"

namespace mish {
namespace {

using nlohmann::json;

void reject_unknown_keys(const json& object, const std::set<std::string>& known,
                         const std::string& where) {
  for (const auto& item : object.items()) {
    if (known.count(item.key()) == 0) {
      std::vector<std::string> names(known.begin(), known.end());
      throw UsageError(fmt::format("{}: unknown key '{}'; known keys: {}", where, item.key(),
                                   fmt::join(names, ", ")));
    }
  }
}

template <typename T>
T get_as(const json& object, const std::string& key, const std::string& where) {
  try {
    return object.at(key).get<T>();
  } catch (const json::exception&) {
    throw UsageError(fmt::format("{}: key '{}' has the wrong type (got {})", where, key,
                                 object.at(key).dump()));
  }
}

int64_t get_integer(const json& object, const std::string& key, const std::string& where) {
  const json& value = object.at(key);
  if (!value.is_number_integer())
    throw UsageError(fmt::format("{}: '{}' must be an integer, got {}", where, key, value.dump()));
  if (value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(INT64_MAX))
    throw UsageError(fmt::format("{}: '{}' = {} is too large", where, key, value.dump()));
  return value.get<int64_t>();
}

int get_count(const json& object, const std::string& key, const std::string& where) {
  const int64_t value = get_integer(object, key, where);
  if (value < 0 || value > 1000000)
    throw UsageError(fmt::format("{}: '{}' must be between 0 and 1000000, got {}", where, key, value));
  return static_cast<int>(value);
}

// Runs `parse`, prefixing a UsageError's message with where in the config the value came from.
template <typename Parse>
auto located(const std::string& where, Parse parse) {
  try {
    return parse();
  } catch (const UsageError& error) {
    throw UsageError(fmt::format("{}: {}", where, error.what()));
  }
}

Problem parse_problem(const json& object, const std::string& where) {
  if (!object.is_object())
    throw UsageError(fmt::format("{}: a problem must be an object like "
                                 "{{\"m\": 1024, \"n\": 8192, \"k\": 8192}}",
                                 where));
  reject_unknown_keys(object, {"m", "n", "k", "seed", "distribution"}, where);
  Problem problem;
  if (object.contains("m")) problem.m = get_integer(object, "m", where);
  if (object.contains("n")) problem.n = get_integer(object, "n", where);
  if (object.contains("k")) problem.k = get_integer(object, "k", where);
  if (object.contains("seed")) {
    const int64_t seed = get_integer(object, "seed", where);
    if (seed < 0) throw UsageError(fmt::format("{}: 'seed' must be non-negative", where));
    problem.seed = static_cast<uint64_t>(seed);
  }
  if (object.contains("distribution")) {
    const auto name = get_as<std::string>(object, "distribution", where);
    problem.distribution = located(where, [&] { return parse_distribution(name); });
  }
  located(where, [&] { validate(problem); });
  return problem;
}

}  // namespace

void add_backend_option(const std::string& assignment, RunConfig& config) {
  const auto dot = assignment.find('.');
  const auto equals = assignment.find('=');
  if (dot == std::string::npos || equals == std::string::npos || dot == 0 || equals < dot + 2)
    throw UsageError(fmt::format("--backend-option '{}' must look like NAME.KEY=VALUE, e.g. "
                                 "fp16x3.chunks=4",
                                 assignment));
  const std::string backend = assignment.substr(0, dot);
  const std::string key = assignment.substr(dot + 1, equals - dot - 1);
  const std::string text = assignment.substr(equals + 1);
  json value = json::parse(text, nullptr, false);
  if (value.is_discarded()) value = text;
  config.backend_options[backend][key] = value;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) {
    const auto first = part.find_first_not_of(" \t");
    const auto last = part.find_last_not_of(" \t");
    parts.push_back(first == std::string::npos ? "" : part.substr(first, last - first + 1));
  }
  return parts;
}

void apply_config_json(const json& document, const std::string& source, RunConfig& config) {
  if (!document.is_object()) throw UsageError(fmt::format("{}: the config must be a JSON object", source));
  reject_unknown_keys(document,
                      {"problem", "problems", "backends", "warmup", "iters", "atol", "rtol", "l2",
                       "include_prepack", "backend_options", "graph", "min_time", "max_noise",
                       "timeout"},
                      source);
  if (document.contains("problem") && document.contains("problems"))
    throw UsageError(fmt::format("{}: give 'problem' or 'problems', not both", source));
  if (document.contains("problem"))
    config.problems = {parse_problem(document["problem"], source + ": problem")};
  if (document.contains("problems")) {
    const json& list = document["problems"];
    if (!list.is_array() || list.empty())
      throw UsageError(fmt::format("{}: 'problems' must be a non-empty array", source));
    config.problems.clear();
    for (size_t i = 0; i < list.size(); ++i)
      config.problems.push_back(parse_problem(list[i], fmt::format("{}: problems[{}]", source, i)));
  }
  if (document.contains("backends")) {
    const json& value = document["backends"];
    if (value.is_string()) {
      config.backends = split_list(value.get<std::string>());
    } else {
      config.backends = get_as<std::vector<std::string>>(document, "backends", source);
    }
  }
  if (document.contains("warmup"))
    config.sampling.warmup = get_count(document, "warmup", source);
  if (document.contains("iters"))
    config.sampling.iters = get_count(document, "iters", source);
  if (document.contains("atol")) config.tolerance.atol = get_as<double>(document, "atol", source);
  if (document.contains("rtol")) config.tolerance.rtol = get_as<double>(document, "rtol", source);
  if (document.contains("l2")) {
    const auto mode = get_as<std::string>(document, "l2", source);
    config.sampling.l2 = located(source, [&] { return parse_l2_mode(mode); });
  }
  if (document.contains("include_prepack"))
    config.include_prepack = get_as<bool>(document, "include_prepack", source);
  if (document.contains("backend_options")) {
    const json& options = document["backend_options"];
    if (!options.is_object())
      throw UsageError(fmt::format("{}: 'backend_options' must be an object like "
                                   "{{\"fp16x3\": {{\"chunks\": 4}}}}",
                                   source));
    for (const auto& item : options.items()) {
      if (!item.value().is_object())
        throw UsageError(fmt::format("{}: backend_options.{} must be an object", source, item.key()));
      config.backend_options[item.key()].update(item.value());
    }
  }
  if (document.contains("graph")) config.graph = get_as<bool>(document, "graph", source);
  if (document.contains("min_time"))
    config.sampling.min_time_s = get_as<double>(document, "min_time", source);
  if (document.contains("max_noise"))
    config.sampling.max_noise = get_as<double>(document, "max_noise", source);
  if (document.contains("timeout"))
    config.sampling.timeout_s = get_as<double>(document, "timeout", source);
}

void apply_config_file(const std::string& path, RunConfig& config) {
  std::ifstream file(path);
  if (!file) throw UsageError(fmt::format("cannot read config file '{}'", path));
  json document;
  try {
    document = json::parse(file);
  } catch (const json::parse_error& error) {
    throw UsageError(fmt::format("config file '{}' is not valid JSON: {}", path, error.what()));
  }
  apply_config_json(document, path, config);
}

void validate(const RunConfig& config) {
  for (const Problem& problem : config.problems) validate(problem);
  if (config.sampling.iters < 1 || config.sampling.iters > 1000000)
    throw UsageError(fmt::format("--iters must be between 1 and 1000000, got {}",
                                 config.sampling.iters));
  if (config.sampling.warmup < 0 || config.sampling.warmup > 1000000)
    throw UsageError(fmt::format("--warmup must be between 0 and 1000000, got {}",
                                 config.sampling.warmup));
  const SampleSettings& s = config.sampling;
  if (s.min_time_s && !(*s.min_time_s >= 0 && *s.min_time_s <= 86400))
    throw UsageError(fmt::format("--min-time must be between 0 and 86400 seconds, got {}",
                                 *s.min_time_s));
  if (s.max_noise && !(*s.max_noise > 0 && *s.max_noise <= 1))
    throw UsageError(fmt::format(
        "--max-noise is a relative width in (0, 1], e.g. 0.01 for 1%, got {}", *s.max_noise));
  if (s.timeout_s && !(*s.timeout_s > 0 && *s.timeout_s <= 86400))
    throw UsageError(fmt::format("--timeout must be between 0 and 86400 seconds (exclusive of 0), got {}",
                                 *s.timeout_s));
  if (!(config.tolerance.atol >= 0) || !(config.tolerance.rtol >= 0))
    throw UsageError("--atol and --rtol must be non-negative numbers");
  if (config.backends.empty()) throw UsageError("--backend needs at least one name");
  for (const std::string& name : config.backends)
    if (name.empty()) throw UsageError("--backend has an empty name in its list");
  // Refuse an unwritable report location before a long run, not after it.
  if (!config.json_path.empty()) {
    const std::filesystem::path folder = std::filesystem::path(config.json_path).parent_path();
    if (!folder.empty() && !std::filesystem::is_directory(folder))
      throw UsageError(fmt::format("--json {}: folder '{}' does not exist; create it first",
                                   config.json_path, folder.string()));
  }
}

}  // namespace mish
