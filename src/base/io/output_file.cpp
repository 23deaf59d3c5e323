#include "base/io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <stdexcept>

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/interrupt_registry.h"
#include "base/io/os_error.h"
#include "base/io/output_target.h"

namespace mish {
namespace {

constexpr const char* kLeftAsItWas = "; the file is left as it was";
constexpr const char* kIncomplete = "; what it received is incomplete";

// ".<name>.tmp.<pid>.<n>" beside the target: the same file system, so the rename is atomic. The
// name is cut so that the temporary's name fits wherever the target's does.
std::string temporary_name(std::string name) {
  static std::atomic<unsigned> count{0};
  if (name.size() > 100) name.resize(100);
  return fmt::format(".{}.tmp.{}.{}", name, ::getpid(), count++);
}

int open_retrying(int folder, const std::string& name, int flags, mode_t mode = 0) {
  int fd;
  do {
    fd = ::openat(folder, name.c_str(), flags, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

// The replacement keeps the replaced file's read, write and execute bits (a private report stays
// private; set-id bits are not carried over to data) and, where allowed, its owner and group; a
// file we may not give away becomes ours, as any editor's save would make it.
void keep_permissions(int fd, const struct stat& old) {
  if ((old.st_uid != ::geteuid() || old.st_gid != ::getegid()) &&
      fchown(fd, old.st_uid, old.st_gid) != 0) {
    // Not allowed (not root): the new file keeps our owner.
  }
  fchmod(fd, old.st_mode & 0777);
}

// Best effort once the rename is done: makes the new name durable; a folder that cannot be
// synced (some network file systems, one we may not read) does not undo the write.
void sync_folder(int folder) {
  const int fd = open_retrying(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

OutputFile::OutputFile(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)) {
  const std::string cannot =
      fmt::format("cannot write {} '{}'", what_, for_terminal(path_, kPathEchoLimit));
  if (path_.empty()) throw UsageError(cannot + ": the file name is empty");
  OutputTarget target = inspect_output(path_);
  refuse_unusable(target, cannot);
  folder_fd_ = target.take_folder_fd();
  name_ = target.name;

  if (target.kind == TargetKind::in_place) {
    registration_ = register_output({}, what_, path_);
    // A link there now was swapped in since: refused (ELOOP). A FIFO waits here for its reader.
    const int follow = target.by_kernel ? 0 : O_NOFOLLOW;
    fd_ = open_retrying(folder_fd_, name_, O_WRONLY | O_CLOEXEC | O_NOCTTY | follow);
    const int error = errno;
    if (fd_ < 0) {
      discard();
      throw_os_error(error, cannot);
    }
    struct stat opened {};
    if (::fstat(fd_, &opened) != 0 || S_ISREG(opened.st_mode)) {
      discard();  // replaced by a regular file since it was inspected: never write over that
      throw UsageError(cannot + ": it changed while it was being opened");
    }
    if (protected_input(opened)) {  // linked in since it was inspected
      discard();
      refuse_input(opened, cannot);
    }
    return;
  }

  temporary_ = temporary_name(name_);
  // Listed before it exists, so that an interrupt in between cannot leave it behind.
  registration_ = register_output({temporary_, folder_fd_}, what_, path_);
  fd_ = open_retrying(folder_fd_, temporary_,
                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd_ < 0) {
    const int error = errno;
    temporary_.clear();  // never created: nothing of ours to remove
    const std::string folder = target.folder;
    discard();
    if (error == ENOENT)
      throw UsageError(fmt::format("{}: folder '{}' does not exist; create it first", cannot,
                                   for_terminal(folder, kPathEchoLimit)));
    throw_os_error(error, cannot);
  }
  if (target.kind == TargetKind::regular) keep_permissions(fd_, target.status);
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temporary_.empty()) ::unlinkat(folder_fd_, temporary_.c_str(), 0);
  temporary_.clear();
  unregister_output(registration_);  // before the folder closes: the handler uses it
  registration_ = -1;
  if (folder_fd_ >= 0) ::close(folder_fd_);
  folder_fd_ = -1;
}

void OutputFile::fail(int error, std::string_view doing) {
  const bool in_place = temporary_.empty();
  discard();
  throw_os_error(
      error, fmt::format("{} {} '{}' failed", doing, what_, for_terminal(path_, kPathEchoLimit)),
      in_place ? kIncomplete : kLeftAsItWas);
}

void OutputFile::write(const void* data, size_t bytes) {
  if (fd_ < 0) throw std::logic_error("OutputFile::write after commit or a failed write");
  if (const int error = write_fully(fd_, data, bytes)) fail(error, "writing");
}

void OutputFile::write(std::string_view text) { write(text.data(), text.size()); }

void OutputFile::commit() {
  if (fd_ < 0) throw std::logic_error("OutputFile::commit after commit or a failed write");
  if (temporary_.empty()) {  // a device or FIFO: nothing to sync or rename
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0 && errno != EINTR) fail(errno, "writing");
    discard();
    return;
  }
  // fsync reports what the page cache has not yet written (a full disk shows up here on some
  // file systems); EINVAL means the file system has no notion of it.
  if (::fsync(fd_) != 0 && errno != EINVAL) fail(errno, "writing");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && errno != EINTR) fail(errno, "writing");
  {
    const InterruptsHeld held;
    // Within the folder held open: whatever the path's folders became since, this replaces the
    // entry that was checked (a link put there meanwhile is replaced, never followed).
    if (::renameat(folder_fd_, temporary_.c_str(), folder_fd_, name_.c_str()) != 0)
      fail(errno, "replacing");
    temporary_.clear();  // it is the target now
    sync_folder(folder_fd_);
    discard();
  }
}

void write_output_file(const std::string& path, std::string_view what, std::string_view content) {
  OutputFile file(path, std::string(what));
  file.write(content);
  file.commit();
}

}  // namespace mish
