#include "cli/parse_errors.h"

#include <fmt/format.h>

#include "common/untrusted_text.h"

namespace mish {

std::string describe_parse_error(const CLI::ParseError& error, std::string_view help_command) {
  std::string text = error.what();
  for (char& c : text)
    if (c == '\n') c = ' ';
  return fmt::format("{}; see {}", for_terminal(text, 400), help_command);
}

}  // namespace mish
