#include "settings/run_config.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/json_input.h"
#include "settings/settings.h"

namespace mish {
namespace {

using nlohmann::json;

// A config file larger or deeper than this is not a config file (the limits also keep parsing
// and error messages, which walk the document recursively, off the stack's limit).
constexpr size_t kMaxConfigBytes = 16 << 20;
constexpr int kMaxConfigDepth = 64;

[[noreturn]] void refuse_unknown_key(const std::string& key, const std::set<std::string>& known,
                                     const std::string& where) {
  std::vector<std::string> names(known.begin(), known.end());
  throw UsageError(fmt::format("{}: unknown key '{}'; known keys: {}", where, for_terminal(key),
                               fmt::join(names, ", ")));
}

std::string key_location(const std::string& where, const std::string& key) {
  return fmt::format("{}: '{}'", where, key);
}

Problem parse_problem(const json& object, const std::string& where) {
  if (!object.is_object())
    throw UsageError(fmt::format("{}: a problem must be an object like "
                                 "{{\"m\": 1024, \"n\": 8192, \"k\": 8192}}",
                                 where));
  std::set<std::string> known;
  for (const Setting& s : settings())
    if (s.per_problem) known.insert(s.key);
  Problem problem;
  for (const auto& item : object.items()) {
    const Setting* s = setting_for_key(item.key());
    if (s == nullptr || !s->per_problem) refuse_unknown_key(item.key(), known, where);
    const std::string location = key_location(where, item.key());
    s->store_problem(problem, parse_config_value(*s, item.value(), location));
  }
  try {
    validate(problem);
  } catch (const UsageError& error) {
    throw UsageError(fmt::format("{}: {}", where, error.what()));
  }
  return problem;
}

}  // namespace

std::string to_string(Isolation isolation) {
  switch (isolation) {
    case Isolation::all: return "all";
    case Isolation::none: return "none";
    case Isolation::automatic: break;
  }
  return "auto";
}

Isolation parse_isolation(const std::string& name) {
  if (name == "auto") return Isolation::automatic;
  if (name == "all") return Isolation::all;
  if (name == "none") return Isolation::none;
  throw UsageError(fmt::format("unknown isolation mode '{}'; choose auto, all or none",
                               for_terminal(name)));
}

void apply_config_json(const json& document, const std::string& source, RunConfig& config) {
  if (!document.is_object())
    throw UsageError(fmt::format("{}: the config must be a JSON object", source));
  std::set<std::string> known = {"problem", "problems"};
  for (const Setting& s : settings())
    if (!s.key.empty() && !s.per_problem) known.insert(s.key);
  for (const auto& item : document.items())
    if (known.count(item.key()) == 0) refuse_unknown_key(item.key(), known, source);

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
  for (const Setting& s : settings()) {
    if (s.key.empty() || s.per_problem || !document.contains(s.key)) continue;
    const std::string where = key_location(source, s.key);
    if (s.store_json)
      s.store_json(config, document[s.key], where);
    else
      apply_setting(s, parse_config_value(s, document[s.key], where), where, config);
  }
}

void apply_config_file(const std::string& path, RunConfig& config) {
  json document;
  try {
    document = read_json_input(path, "config", {kMaxConfigBytes, kMaxConfigDepth});
  } catch (const UsageError& error) {
    throw UsageError(fmt::format("--config: {}", error.what()));
  }
  apply_config_json(document, for_terminal(path, kPathEchoLimit), config);
}

void validate(const RunConfig& config) {
  for (const Problem& problem : config.problems) validate(problem);
  // A report holds one result per backend and problem (compare and merge refuse two): the same
  // problem twice, listed so or made so by a flag that sets every problem's size or seed, would
  // be run twice for a report no reader takes.
  std::map<std::tuple<int64_t, int64_t, int64_t, uint64_t, Distribution>, size_t> first;
  for (size_t i = 0; i < config.problems.size(); ++i) {
    const Problem& p = config.problems[i];
    const auto [seen, fresh] =
        first.emplace(std::make_tuple(p.m, p.n, p.k, p.seed, p.distribution), i);
    if (!fresh)
      throw UsageError(fmt::format(
          "problems {} and {} are the same problem ({} {} seed {}); a flag such as --m or "
          "--seed sets it for every problem of the config; give each problem once",
          seen->second + 1, i + 1, p.shape(), to_string(p.distribution), p.seed));
  }
  if (config.backends.empty()) throw UsageError("--backend needs at least one name");
}

}  // namespace mish
