// load_report and read_report: a report file read whole (up to kMaxReportBytes), parsed with a
// limit on nesting depth, schema-checked.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include <fmt/format.h>

#include "common/errors.h"
#include "common/untrusted_text.h"
#include "compare/report_input.h"
#include "io/os_error.h"
#include "report/schema.h"

namespace mish {
namespace {

using nlohmann::json;

constexpr size_t kMessageLimit = 300;  // parser messages quote the input they stopped at

struct TooDeep {};

// "number overflow parsing '1e999'" from "[json.exception.out_of_range.406] number overflow ...".
std::string_view without_prefix(std::string_view message) {
  const size_t end = message.find("] ");
  return end == std::string_view::npos ? message : message.substr(end + 2);
}

std::string read_whole(const std::string& path, const std::string& shown) {
  const std::string cannot = fmt::format("cannot read report '{}'", shown);
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
  if (S_ISDIR(status.st_mode)) throw UsageError(cannot + ": it is a folder, not a file");
  if (S_ISBLK(status.st_mode)) throw UsageError(cannot + ": it is a block device, not a file");
  const auto too_large = [&] {
    return UsageError(fmt::format("{}: it is larger than {} MiB, more than any report", cannot,
                                  kMaxReportBytes >> 20));
  };
  if (S_ISREG(status.st_mode) && static_cast<uint64_t>(status.st_size) > kMaxReportBytes)
    throw too_large();

  std::string text;
  if (S_ISREG(status.st_mode)) text.reserve(static_cast<size_t>(status.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw UsageError(fmt::format("{}: {}", cannot, os_reason(errno)));
    if (got == 0) return text;
    if (text.size() + static_cast<size_t>(got) > kMaxReportBytes) throw too_large();
    text.append(buffer, static_cast<size_t>(got));
  }
}

}  // namespace

json load_report(const std::string& path, std::string_view command) {
  const std::string shown = for_terminal(path, kPathEchoLimit);
  const std::string text = read_whole(path, shown);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw UsageError(fmt::format("'{}' is empty, not a report", shown));
  json report;
  try {
    // The DOM is built depth-first and destroyed recursively: a limit keeps both off the stack's
    // edge whatever the file holds.
    report = json::parse(text, [](int depth, json::parse_event_t, json&) {
      if (depth > kMaxReportDepth) throw TooDeep{};
      return true;
    });
  } catch (const TooDeep&) {
    throw UsageError(fmt::format("'{}' nests JSON more than {} levels deep; not a report", shown,
                                 kMaxReportDepth));
  } catch (const json::out_of_range& error) {  // 1e999: JSON allows it, a double cannot hold it
    throw UsageError(fmt::format("'{}' holds a number too large for a double ({})", shown,
                                 for_terminal(without_prefix(error.what()), kMessageLimit)));
  } catch (const json::parse_error& error) {
    throw UsageError(fmt::format("'{}' is not valid JSON: {}", shown,
                                 for_terminal(error.what(), kMessageLimit)));
  }
  const SchemaCheck check = check_report(report);
  if (!check.ok())
    throw UsageError(fmt::format("'{}' is not a usable mishbench report: {}", shown,
                                 for_terminal(check.errors.front(), kMessageLimit)));
  for (const std::string& warning : check.warnings)
    fmt::print(stderr, "mishbench {}: warning: '{}': {}\n", command, shown,
               for_terminal(warning, kMessageLimit));
  return report;
}

ReportSummary read_report(const std::string& path) {
  return summarize_report(load_report(path), for_terminal(path, kPathEchoLimit));
}

}  // namespace mish
