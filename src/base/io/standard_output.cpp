#include "base/io/standard_output.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/common/errors.h"
#include "base/io/output_file.h"

namespace mish {
namespace {

void print_whole(std::string_view what, std::string_view content) {
  const bool written = std::fwrite(content.data(), 1, content.size(), stdout) == content.size();
  if (!written || std::fflush(stdout) != 0)
    throw EnvironmentError(
        fmt::format("cannot write the {} to standard output: {}", what, std::strerror(errno)));
}

}  // namespace

void write_output(const std::string& path, std::string_view what, std::string_view content) {
  if (is_standard_output(path)) return print_whole(what, content);
  write_output_file(path, what, content);
}

void append_output(const std::string& path, std::string_view what, std::string_view content) {
  if (is_standard_output(path)) return print_whole(what, content);
  append_output_file(path, what, content);
}

}  // namespace mish
