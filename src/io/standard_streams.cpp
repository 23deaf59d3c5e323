#include "io/standard_streams.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "io/os_error.h"

namespace mish {
namespace {

ssize_t write_or_drop(void*, const char* data, size_t size) {
  write_fully(STDERR_FILENO, data, size);  // a failure is dropped: see the header
  return static_cast<ssize_t>(size);
}

}  // namespace

void reserve_standard_descriptors() {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // Open for the other direction, so that using it fails as before; the lowest free number,
    // which is `fd` since the ones below are open.
    const int placeholder = ::open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
    if (placeholder >= 0 && placeholder != fd) {
      ::dup2(placeholder, fd);
      ::close(placeholder);
    }
  }
}

void make_stderr_best_effort() {
  static bool made = false;
  if (made) return;
  const cookie_io_functions_t functions{nullptr, write_or_drop, nullptr, nullptr};
  std::FILE* stream = fopencookie(nullptr, "w", functions);
  if (stream == nullptr) return;  // out of memory at start-up: stderr stays as it was
  std::setvbuf(stream, nullptr, _IONBF, 0);  // unbuffered, as stderr is
  std::fflush(stderr);
  stderr = stream;  // glibc's stderr is a plain variable, documented as assignable
  made = true;
}

void ignore_write_signals() {
  ::signal(SIGPIPE, SIG_IGN);
  ::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace mish
