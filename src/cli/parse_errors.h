// The argument parser's refusals (unknown flags, stray words, missing or extra values) as our own
// one-line messages, in the style of every other usage error.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mish {

// One line saying what was wrong with the command line, ending with where to read more
// (`help_command`, e.g. "mishbench --help"). `unexpected` are the arguments the parser could not
// place, in the order given (CLI::App::remaining(true)), for the message of a CLI::ExtrasError.
std::string describe_parse_error(const CLI::ParseError& error,
                                 const std::vector<std::string>& unexpected,
                                 std::string_view help_command);

}  // namespace mish
