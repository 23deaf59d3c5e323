// Operating-system errors turned into the tool's exceptions, and the checked write underneath
// every output file.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace mish {

// The OS's reason for `error` (an errno value), e.g. "No space left on device".
std::string os_reason(int error);

// Throws UsageError "<message>: <reason><after>" when the user can fix the cause by choosing
// another path (no such file or folder, permission denied, read-only file system, name too long, a
// folder, a symbolic link loop), EnvironmentError otherwise (disk full, quota, I/O error).
[[noreturn]] void throw_os_error(int error, std::string_view message, std::string_view after = "");

// Writes all `bytes` (retrying short writes and EINTR); returns 0 or the errno of the failure.
// SIGPIPE is held back meanwhile, so a FIFO whose reader went away gives EPIPE instead of
// killing the process.
int write_fully(int fd, const void* data, size_t bytes) noexcept;

}  // namespace mish
