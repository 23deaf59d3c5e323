// Untrusted JSON files (a report to compare, a config) read whole and parsed with limits on size
// and nesting depth, so that no file (/dev/zero, a sparse file of terabytes, "[[[[...") can
// exhaust memory or the stack. Every refusal is a UsageError with a one-line message that quotes
// the path and names what the file should have been.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mish {

struct JsonInputLimits {
  size_t max_bytes = 0;
  int max_depth = 0;
};

// `noun` names what the file should be in messages ("report", "config"): "cannot read report
// 'x': No such file or directory", "'x' is empty, not a report", "'x' is not valid JSON: ...",
// "'x' holds a number too large for a double (...)", "'x' nests JSON more than 64 levels deep".
// The file read is protected from every output from then on (protect_input, base/io/output_file.h).
nlohmann::json read_json_input(const std::string& path, std::string_view noun,
                               const JsonInputLimits& limits);

}  // namespace mish
