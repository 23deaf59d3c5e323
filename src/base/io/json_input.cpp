#include "base/io/json_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/os_error.h"
#include "base/io/output_file.h"

namespace mish {
namespace {

using nlohmann::json;

constexpr size_t kParserMessageLimit = 300;  // parser messages quote the input they stopped at

struct TooDeep {};

// "number overflow parsing '1e999'" from "[json.exception.out_of_range.406] number overflow ...".
std::string_view without_prefix(std::string_view message) {
  const size_t end = message.find("] ");
  return end == std::string_view::npos ? message : message.substr(end + 2);
}

// The whole file, refused as soon as it proves larger than `max_bytes` (a regular file by its
// size, anything else, such as /dev/zero, once that much was read).
std::string read_whole(const std::string& path, const std::string& shown, std::string_view noun,
                       size_t max_bytes) {
  const std::string cannot = fmt::format("cannot read {} '{}'", noun, shown);
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) throw UsageError(fmt::format("{}: {}", cannot, os_reason(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat status {};
  if (::fstat(fd, &status) != 0) throw UsageError(fmt::format("{}: {}", cannot, os_reason(errno)));
  protect_input(status, path);  // what is read here is never written over (base/io/output_file.h)
  if (S_ISDIR(status.st_mode)) throw UsageError(cannot + ": it is a folder, not a file");
  if (S_ISBLK(status.st_mode)) throw UsageError(cannot + ": it is a block device, not a file");
  const auto too_large = [&] {
    return UsageError(fmt::format("{}: it is larger than {} MiB, more than any {}", cannot,
                                  max_bytes >> 20, noun));
  };
  if (S_ISREG(status.st_mode) && static_cast<uint64_t>(status.st_size) > max_bytes)
    throw too_large();

  std::string text;
  if (S_ISREG(status.st_mode)) text.reserve(static_cast<size_t>(status.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw UsageError(fmt::format("{}: {}", cannot, os_reason(errno)));
    if (got == 0) return text;
    if (text.size() + static_cast<size_t>(got) > max_bytes) throw too_large();
    text.append(buffer, static_cast<size_t>(got));
  }
}

}  // namespace

json read_json_input(const std::string& path, std::string_view noun,
                     const JsonInputLimits& limits) {
  const std::string shown = for_terminal(path, kPathEchoLimit);
  const std::string text = read_whole(path, shown, noun, limits.max_bytes);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw UsageError(fmt::format("'{}' is empty, not a {}", shown, noun));
  try {
    // The DOM is built depth-first and destroyed recursively: a limit keeps both off the stack's
    // edge whatever the file holds.
    return json::parse(text, [&](int depth, json::parse_event_t, json&) {
      if (depth > limits.max_depth) throw TooDeep{};
      return true;
    });
  } catch (const TooDeep&) {
    throw UsageError(fmt::format("'{}' nests JSON more than {} levels deep; not a {}", shown,
                                 limits.max_depth, noun));
  } catch (const json::out_of_range& error) {  // 1e999: JSON allows it, a double cannot hold it
    throw UsageError(fmt::format("'{}' holds a number too large for a double ({})", shown,
                                 for_terminal(without_prefix(error.what()), kParserMessageLimit)));
  } catch (const json::parse_error& error) {
    throw UsageError(fmt::format("'{}' is not valid JSON: {}", shown,
                                 for_terminal(without_prefix(error.what()), kParserMessageLimit)));
  }
}

}  // namespace mish
