#include "base/io/output_target.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/os_error.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxLinkHops = 40;  // the kernel's own limit on symbolic link hops

std::optional<std::string> kernel_filesystem_type(const struct statfs& info) {
  switch (static_cast<unsigned long>(info.f_type)) {
    case PROC_SUPER_MAGIC:
      return "procfs";
    case SYSFS_MAGIC:
      return "sysfs";
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
      return "cgroupfs";
    case DEBUGFS_MAGIC:
      return "debugfs";
    case TRACEFS_MAGIC:
      return "tracefs";
    case SECURITYFS_MAGIC:
      return "securityfs";
    case BPF_FS_MAGIC:
      return "bpffs";
    case EFIVARFS_MAGIC:
      return "efivarfs";
    default:
      return std::nullopt;
  }
}

std::string describe_kind(mode_t mode) {
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  return "neither a regular file, a character device nor a FIFO";
}

int open_folder(int base, const std::string& path) {
  return ::openat(base, path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
}

// The target of the symbolic link `name` in `folder`, or "" with errno set.
std::string read_link(int folder, const std::string& name) {
  std::vector<char> buffer(256);
  while (true) {
    const ssize_t length = ::readlinkat(folder, name.c_str(), buffer.data(), buffer.size());
    if (length < 0) return "";
    if (static_cast<size_t>(length) < buffer.size()) return std::string(buffer.data(), length);
    buffer.resize(buffer.size() * 2);
  }
}

void classify(OutputTarget& target) {
  const mode_t mode = target.status.st_mode;
  if (S_ISDIR(mode)) {
    target.kind = TargetKind::folder;
  } else if (S_ISCHR(mode) || S_ISFIFO(mode)) {
    target.kind = TargetKind::in_place;
  } else if (S_ISREG(mode)) {
    target.kind = TargetKind::regular;
  } else {
    target.kind = TargetKind::unsupported;
    target.description = describe_kind(mode);
  }
}

}  // namespace

OutputTarget::OutputTarget(OutputTarget&& other) noexcept
    : kind(other.kind),
      error(other.error),
      status(other.status),
      name(std::move(other.name)),
      folder(std::move(other.folder)),
      description(std::move(other.description)),
      kernel_fs(std::move(other.kernel_fs)),
      through_kernel_fs(other.through_kernel_fs),
      by_kernel(other.by_kernel),
      folder_fd_(other.take_folder_fd()) {}

OutputTarget::~OutputTarget() {
  if (folder_fd_ >= 0) ::close(folder_fd_);
}

int OutputTarget::take_folder_fd() {
  const int fd = folder_fd_;
  folder_fd_ = -1;
  return fd;
}

std::string parent_folder(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

std::optional<std::string> kernel_filesystem(const std::string& path) {
  struct statfs info {};
  if (::statfs(path.c_str(), &info) != 0) return std::nullopt;
  return kernel_filesystem_type(info);
}

OutputTarget inspect_output(const std::string& path) {
  OutputTarget target;
  target.folder = parent_folder(path);
  target.name = fs::path(path).filename().string();
  target.folder_fd_ = open_folder(AT_FDCWD, target.folder);
  for (int hops = 0;; ++hops) {
    if (target.folder_fd_ < 0) {
      target.error = errno;
      return target;
    }
    struct statfs info {};
    const auto kernel = ::fstatfs(target.folder_fd_, &info) == 0
                            ? kernel_filesystem_type(info)
                            : std::optional<std::string>();
    if (kernel) {
      // /proc/self/fd/1 names whatever descriptor 1 is (a pipe has no path): the kernel follows.
      target.by_kernel = true;
      if (::fstatat(target.folder_fd_, target.name.c_str(), &target.status, 0) != 0) {
        target.error = errno;
        return target;
      }
      classify(target);
      struct stat folder_status {};
      const bool in_kernel_fs = ::fstat(target.folder_fd_, &folder_status) == 0 &&
                                folder_status.st_dev == target.status.st_dev;
      if (target.kind == TargetKind::regular) {
        if (in_kernel_fs)
          target.kernel_fs = kernel;
        else
          target.through_kernel_fs = true;
      }
      return target;
    }
    if (::fstatat(target.folder_fd_, target.name.c_str(), &target.status, AT_SYMLINK_NOFOLLOW) !=
        0) {
      target.error = errno;
      return target;
    }
    if (!S_ISLNK(target.status.st_mode)) {
      classify(target);
      return target;
    }
    if (hops == kMaxLinkHops) {
      target.error = ELOOP;
      return target;
    }
    // One hop: the link's target, relative to the link's own folder unless absolute.
    const std::string link = read_link(target.folder_fd_, target.name);
    if (link.empty()) {
      target.error = errno == 0 ? ENOENT : errno;
      return target;
    }
    const fs::path link_path(link);
    target.name = link_path.filename().string();
    if (!link_path.has_parent_path()) continue;  // in the same folder
    const std::string link_folder = parent_folder(link);
    const int next = open_folder(target.folder_fd_, link_folder);
    const int error = errno;
    ::close(target.folder_fd_);
    target.folder_fd_ = next;
    errno = error;
    target.folder = link_path.is_absolute() ? link_folder
                                            : (fs::path(target.folder) / link_folder).string();
  }
}

std::optional<std::string> unusable_reason(const OutputTarget& target) {
  switch (target.kind) {
    case TargetKind::folder:
      return "it is a folder; give a file name";
    case TargetKind::unsupported:
      return "it is " + target.description +
             "; an output must be a regular file, a character device or a FIFO";
    case TargetKind::regular:
      if (target.kernel_fs)
        return "it is on " + *target.kernel_fs + ", a kernel interface, not a place for files";
      if (target.through_kernel_fs)
        return "it is a regular file reached through /proc (an open descriptor such as "
               "/dev/stdout); give the file's own path or redirect instead";
      return std::nullopt;
    case TargetKind::missing:
    case TargetKind::in_place:
      return std::nullopt;
  }
  return std::nullopt;
}

void refuse_input(const struct stat& status, const std::string& cannot) {
  if (const auto input = protected_input(status))
    throw UsageError(fmt::format(
        "{}: it is the same file as the input '{}'; writing it would destroy that input", cannot,
        for_terminal(*input, kPathEchoLimit)));
}

void refuse_unusable(const OutputTarget& target, const std::string& cannot) {
  if (const auto reason = unusable_reason(target)) throw UsageError(cannot + ": " + *reason);
  if (target.folder_fd() < 0) {
    if (target.error == ENOENT)
      throw UsageError(fmt::format("{}: folder '{}' does not exist; create it first", cannot,
                                   for_terminal(target.folder, kPathEchoLimit)));
    throw_os_error(target.error, cannot);
  }
  if (target.kind == TargetKind::missing) {
    if (target.error != ENOENT) throw_os_error(target.error, cannot);
    return;
  }
  refuse_input(target.status, cannot);
}

}  // namespace mish
