// The argument parser's refusals (unknown flags, missing or extra values) as our own one-line
// messages, in the style of every other usage error.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <string_view>

namespace mish {

// One line saying what was wrong with the command line, ending with where to read more
// (`help_command`, e.g. "mishbench --help").
std::string describe_parse_error(const CLI::ParseError& error, std::string_view help_command);

}  // namespace mish
