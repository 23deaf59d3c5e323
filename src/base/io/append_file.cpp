// append_output_file: adds to a file in place (a CI job summary collects several steps' tables),
// so there is no temporary file; instead a regular file is cut back to its old length when the
// append fails or is interrupted.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/interrupt_registry.h"
#include "base/io/os_error.h"
#include "base/io/output_file.h"
#include "base/io/output_target.h"

namespace mish {

void append_output_file(const std::string& path, std::string_view what, std::string_view content) {
  const std::string shown = for_terminal(path, kPathEchoLimit);
  const std::string cannot = fmt::format("cannot append to {} '{}'", what, shown);
  if (path.empty()) throw UsageError(cannot + ": the file name is empty");
  const OutputTarget target = inspect_output(path);
  refuse_unusable(target, cannot);

  // Relative to the folder held open; a link there now was swapped in since: refused (ELOOP).
  const int follow = target.by_kernel ? 0 : O_NOFOLLOW;
  int fd;
  do {
    fd = ::openat(target.folder_fd(), target.name.c_str(),
                  O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | follow, 0666);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) throw_os_error(errno, cannot);
  struct stat opened {};
  if (::fstat(fd, &opened) != 0) {
    const int error = errno;
    ::close(fd);
    throw_os_error(error, cannot);
  }
  if (protected_input(opened)) {  // linked in since it was inspected
    ::close(fd);
    refuse_input(opened, cannot);
  }
  const bool regular = S_ISREG(opened.st_mode);
  if (!regular && !S_ISCHR(opened.st_mode) && !S_ISFIFO(opened.st_mode)) {
    ::close(fd);
    throw UsageError(cannot + ": it changed while it was being opened");
  }
  Registration registration;
  if (regular) {
    registration.append_fd = fd;
    registration.restore_size = opened.st_size;
  }
  int slot;
  try {
    slot = register_output(registration, what, path);
  } catch (...) {
    ::close(fd);
    throw;
  }

  // Cuts a regular file back, then closes: the interrupt handler never sees a closed descriptor.
  const auto give_up = [&](int error) {
    if (regular) {
      while (::ftruncate(fd, opened.st_size) != 0 && errno == EINTR) {
      }
    }
    unregister_output(slot);
    ::close(fd);
    throw_os_error(
        error, fmt::format("appending to {} '{}' failed", what, shown),
        regular ? "; the file is cut back to its old length" : "; what it received is incomplete");
  };
  if (const int error = write_fully(fd, content.data(), content.size())) give_up(error);
  if (regular && ::fsync(fd) != 0 && errno != EINVAL) give_up(errno);
  unregister_output(slot);
  if (::close(fd) != 0 && errno != EINTR)
    throw_os_error(errno, fmt::format("appending to {} '{}' failed", what, shown));
}

}  // namespace mish
