// "-" as an output path: standard output, written as a whole and flushed, every write checked,
// for `--json -` and the other run exports. Any other path goes to the safe file writer
// (output_file.h).
#pragma once
#include <string>
#include <string_view>

namespace mish {

constexpr std::string_view kStandardOutput = "-";

inline bool is_standard_output(std::string_view path) { return path == kStandardOutput; }

// `content` to standard output for "-" (EnvironmentError naming `what` when it cannot be
// written), else write_output_file(path, what, content).
void write_output(const std::string& path, std::string_view what, std::string_view content);

// The same for an output that appends to its file (append_output_file).
void append_output(const std::string& path, std::string_view what, std::string_view content);

}  // namespace mish
