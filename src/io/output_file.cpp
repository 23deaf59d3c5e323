#include "io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "common/errors.h"
#include "common/untrusted_text.h"
#include "io/interrupt_registry.h"
#include "io/os_error.h"
#include "io/output_target.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLeftAsItWas = "; the file is left as it was";
constexpr const char* kIncomplete = "; what it received is incomplete";

// ".<name>.tmp.<pid>.<n>" beside the target: the same file system, so the rename is atomic. The
// name is cut so that the temporary's name fits wherever the target's does.
std::string temporary_beside(const std::string& target, const std::string& folder) {
  static std::atomic<unsigned> count{0};
  std::string name = fs::path(target).filename().string();
  if (name.size() > 100) name.resize(100);
  return (fs::path(folder) / fmt::format(".{}.tmp.{}.{}", name, ::getpid(), count++)).string();
}

int open_retrying(const char* path, int flags, mode_t mode = 0) {
  int fd;
  do {
    fd = ::open(path, flags, mode);
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
// synced (some network file systems) does not undo the write.
void sync_folder(const std::string& folder) {
  const int fd = open_retrying(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
  const OutputTarget target = inspect_output(path_);
  if (const auto reason = unusable_reason(target)) throw UsageError(cannot + ": " + *reason);
  if (target.kind == TargetKind::missing && target.error != ENOENT)
    throw_os_error(target.error, cannot);

  if (target.kind == TargetKind::in_place) {
    target_ = path_;
    registration_ = register_output({}, what_, path_);
    fd_ = open_retrying(path_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);  // a FIFO waits here
    const int error = errno;
    struct stat opened {};
    if (fd_ >= 0 && (::fstat(fd_, &opened) != 0 || S_ISREG(opened.st_mode))) {
      discard();  // replaced by a regular file since it was inspected: never write over that
      throw UsageError(cannot + ": it changed while it was being opened");
    }
    if (fd_ < 0) {
      discard();
      throw_os_error(error, cannot);
    }
    return;
  }

  target_ = target.file;
  temporary_ = temporary_beside(target.file, target.folder);
  // Listed before it exists, so that an interrupt in between cannot leave it behind.
  registration_ = register_output({temporary_}, what_, path_);
  fd_ = open_retrying(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd_ < 0) {
    const int error = errno;
    temporary_.clear();  // never created: nothing of ours to remove
    discard();
    if (error == ENOENT)
      throw UsageError(fmt::format("{}: folder '{}' does not exist; create it first", cannot,
                                   for_terminal(target.folder, kPathEchoLimit)));
    throw_os_error(error, cannot);
  }
  if (target.kind == TargetKind::regular) keep_permissions(fd_, target.status);
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  temporary_.clear();
  unregister_output(registration_);
  registration_ = -1;
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
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) fail(errno, "replacing");
    temporary_.clear();  // it is the target now
    discard();
  }
  sync_folder(parent_folder(target_));
}

void write_output_file(const std::string& path, std::string_view what, std::string_view content) {
  OutputFile file(path, std::string(what));
  file.write(content);
  file.commit();
}

}  // namespace mish
