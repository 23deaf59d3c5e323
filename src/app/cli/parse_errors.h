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
// place, in the order given (CLI::App::remaining(true)), for the message of a CLI::ExtrasError:
// an unknown flag is named with the closest of `known_flags` (long names without their dashes,
// "threshold"), and the word after it, which the parser could not place either, is taken for
// its value.
std::string describe_parse_error(const CLI::ParseError& error,
                                 const std::vector<std::string>& unexpected,
                                 const std::vector<std::string>& known_flags,
                                 std::string_view help_command);

// The long flags of `app` without their dashes ("iters", "help"), for describe_parse_error.
std::vector<std::string> flag_names(const CLI::App& app);

}  // namespace mish
