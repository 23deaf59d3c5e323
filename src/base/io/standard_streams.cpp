#include "base/io/standard_streams.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <mutex>
#include <string>

#include "base/io/os_error.h"

namespace mish {
namespace {

constexpr std::string_view kEraseLine = "\r\033[K";

// Whether a status line is on the terminal now; guarded by status_mutex(), which also keeps a
// status line and other output from interleaving.
bool status_shown = false;
std::mutex& status_mutex() {
  static std::mutex mutex;
  return mutex;
}

void erase_status_line() {
  if (!status_shown) return;
  write_fully(STDERR_FILENO, kEraseLine.data(), kEraseLine.size());
  status_shown = false;
}

ssize_t write_or_drop(void*, const char* data, size_t size) {
  const std::lock_guard<std::mutex> lock(status_mutex());
  erase_status_line();
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

void show_status_line(std::string_view line) {
  const std::string text = std::string(kEraseLine) + std::string(line);
  const std::lock_guard<std::mutex> lock(status_mutex());
  write_fully(STDERR_FILENO, text.data(), text.size());
  status_shown = true;
}

void clear_status_line() {
  const std::lock_guard<std::mutex> lock(status_mutex());
  erase_status_line();
}

void ignore_write_signals() {
  ::signal(SIGPIPE, SIG_IGN);
  ::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace mish
