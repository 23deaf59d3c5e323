#include "base/io/os_error.h"

#include <fmt/format.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "base/common/errors.h"

namespace mish {

std::string os_reason(int error) { return std::strerror(error); }

void throw_os_error(int error, std::string_view message, std::string_view after) {
  const std::string text = fmt::format("{}: {}{}", message, os_reason(error), after);
  switch (error) {
    case ENOENT:
    case ENOTDIR:
    case EISDIR:
    case EACCES:
    case EPERM:
    case EROFS:
    case ENAMETOOLONG:
    case ELOOP:
    case ENXIO:
    case ETXTBSY:
    case EEXIST:
      throw UsageError(text);
    default:
      throw EnvironmentError(text);
  }
}

int write_fully(int fd, const void* data, size_t bytes) noexcept {
  sigset_t pipe_signal, previous, pending;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  sigpending(&pending);
  const bool already_pending = sigismember(&pending, SIGPIPE) == 1;

  int error = 0;
  const char* at = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t written = ::write(fd, at, bytes);
    if (written < 0) {
      if (errno == EINTR) continue;
      error = errno;
      break;
    }
    if (written == 0) {  // no progress and no error: treat as a full device rather than spin
      error = ENOSPC;
      break;
    }
    at += written;
    bytes -= static_cast<size_t>(written);
  }
  if (error == EPIPE && !already_pending) {  // take back the SIGPIPE this write raised
    const timespec no_wait{};
    while (sigtimedwait(&pipe_signal, nullptr, &no_wait) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return error;
}

}  // namespace mish
