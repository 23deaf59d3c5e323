#include "app/cli/parse_errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "base/common/nearest_name.h"
#include "base/common/untrusted_text.h"

namespace mish {
namespace {

constexpr size_t kShownArguments = 3;  // a message names the first few stray arguments

bool is_flag(std::string_view word) { return word.size() > 1 && word[0] == '-'; }

// "unknown flag '--iter' (did you mean --iters?)", "unexpected argument 'stray' and 1 more:
// 'words'". The word after an unknown flag without "=VALUE" is its value, not a stray word.
std::string describe_unexpected(const std::vector<std::string>& unexpected,
                                const std::vector<std::string>& known_flags) {
  if (unexpected.empty()) return "unexpected arguments";
  const std::string& first = unexpected.front();
  std::string text;
  size_t placed = 1;
  if (is_flag(first)) {
    const std::string_view flag = std::string_view(first).substr(0, first.find('='));
    const std::string_view bare = flag.substr(std::min(flag.find_first_not_of('-'), flag.size()));
    const std::optional<std::string> nearest = nearest_name(bare, known_flags);
    text = fmt::format("unknown flag '{}'{}", for_terminal(first),
                       nearest ? fmt::format(" (did you mean --{}?)", *nearest) : "");
    if (flag.size() == first.size() && unexpected.size() > 1 && !is_flag(unexpected[1]))
      placed = 2;
  } else {
    text = fmt::format("unexpected argument '{}'", for_terminal(first));
  }
  if (unexpected.size() == placed) return text;
  std::vector<std::string> rest;
  for (size_t i = placed; i < std::min(unexpected.size(), placed + kShownArguments); ++i)
    rest.push_back(fmt::format("'{}'", for_terminal(unexpected[i])));
  if (unexpected.size() > placed + kShownArguments) rest.push_back("...");
  return fmt::format("{} and {} more: {}", text, unexpected.size() - placed, fmt::join(rest, " "));
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// CLI11's ArgumentMismatch texts, "NAME: 1 required TYPE missing", "NAME: At Most 1 required but
// received 2" and "NAME was given a disallowed flag override", in our words; "" for another.
std::string describe_mismatch(std::string_view text) {
  constexpr std::string_view kOverride = " was given a disallowed flag override";
  if (ends_with(text, kOverride)) {
    const std::string_view name = text.substr(0, text.size() - kOverride.size());
    return fmt::format("{}{} is a switch and takes no value", starts_with(name, "-") ? "" : "--",
                       for_terminal(name));
  }
  const size_t colon = text.find(": ");
  if (colon == std::string_view::npos) return "";
  const std::string name = for_terminal(text.substr(0, colon));
  const std::string_view detail = text.substr(colon + 2);
  constexpr std::string_view kMissing = "1 required ", kMissingEnd = " missing";
  if (starts_with(detail, kMissing) && ends_with(detail, kMissingEnd))
    return fmt::format("{} needs a value ({})", name,
                       for_terminal(detail.substr(kMissing.size(), detail.size() - kMissing.size() -
                                                                       kMissingEnd.size())));
  constexpr std::string_view kAtMostOne = "At Most 1 required but received ";
  if (starts_with(detail, kAtMostOne))
    return fmt::format("{} is given {} times; give it once", name,
                       for_terminal(detail.substr(kAtMostOne.size())));
  return "";
}

}  // namespace

std::vector<std::string> flag_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options())
    for (const std::string& name : option->get_lnames()) names.push_back(name);
  return names;
}

std::string describe_parse_error(const CLI::ParseError& error,
                                 const std::vector<std::string>& unexpected,
                                 const std::vector<std::string>& known_flags,
                                 std::string_view help_command) {
  std::string text = error.what();
  for (char& c : text)
    if (c == '\n') c = ' ';
  std::string described;
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr)
    described = describe_unexpected(unexpected, known_flags);
  else if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr)
    described = describe_mismatch(text);
  if (described.empty()) described = for_terminal(text, 400);
  return fmt::format("{}; see {}", described, help_command);
}

}  // namespace mish
