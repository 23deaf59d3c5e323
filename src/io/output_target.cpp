#include "io/output_target.h"

#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <memory>

namespace mish {
namespace {

namespace fs = std::filesystem;

std::string describe_kind(mode_t mode) {
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  return "neither a regular file, a character device nor a FIFO";
}

// Whether some hop on the way from `path` to the file it names lies on a kernel file system:
// "/dev/stdout" -> "/proc/self/fd/1" -> the file behind descriptor 1. Replacing that file by
// renaming over it would detach it from the descriptor, so such a path is refused for regular
// files (a terminal or a pipe behind it is written in place).
bool reached_through_kernel_fs(const std::string& path) {
  std::error_code error;
  fs::path hop = path;
  for (int hops = 0; hops < 40; ++hops) {  // the kernel's own limit on symbolic link hops
    const std::string folder = parent_folder(hop.string());
    if (kernel_filesystem(folder)) return true;
    if (!fs::is_symlink(hop, error)) return false;
    const fs::path next = fs::read_symlink(hop, error);
    if (error) return false;
    hop = next.is_absolute() ? next : fs::path(folder) / next;
  }
  return false;
}

}  // namespace

std::string parent_folder(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

std::optional<std::string> kernel_filesystem(const std::string& path) {
  struct statfs info {};
  if (::statfs(path.c_str(), &info) != 0) return std::nullopt;
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

OutputTarget inspect_output(const std::string& path) {
  OutputTarget target;
  target.file = path;
  target.folder = parent_folder(path);
  if (::stat(path.c_str(), &target.status) != 0) {
    target.error = errno;
    return target;
  }
  const mode_t mode = target.status.st_mode;
  if (S_ISDIR(mode)) {
    target.kind = TargetKind::folder;
  } else if (S_ISCHR(mode) || S_ISFIFO(mode)) {
    target.kind = TargetKind::in_place;
  } else if (S_ISREG(mode)) {
    target.kind = TargetKind::regular;
    const std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr),
                                                           &std::free);
    if (real) {
      target.file = real.get();
      target.folder = parent_folder(target.file);
    }
    target.through_kernel_fs = reached_through_kernel_fs(path);
  } else {
    target.kind = TargetKind::unsupported;
    target.description = describe_kind(mode);
  }
  return target;
}

std::optional<std::string> unusable_reason(const OutputTarget& target) {
  switch (target.kind) {
    case TargetKind::folder:
      return "it is a folder; give a file name";
    case TargetKind::unsupported:
      return "it is " + target.description +
             "; an output must be a regular file, a character device or a FIFO";
    case TargetKind::regular:
      if (const auto filesystem = kernel_filesystem(target.folder))
        return "it is on " + *filesystem + ", a kernel interface, not a place for files";
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

}  // namespace mish
