// What an output path names today: nothing yet, a regular file, something written in place (a
// character device, a FIFO), a folder, or something no output may be (a socket, a block device).
// Found as the kernel would follow the path, one symbolic link at a time, with the folder of the
// entry finally reached held open: the writer then checks, creates, opens and renames relative to
// that folder, so what it checked is what it writes, whatever is renamed or linked in meanwhile.
// Shared by the up-front check and the writer.
#pragma once
#include <sys/stat.h>

#include <optional>
#include <string>

namespace mish {

enum class TargetKind { missing, regular, in_place, folder, unsupported };

class OutputTarget {
 public:
  OutputTarget() = default;
  OutputTarget(OutputTarget&& other) noexcept;
  OutputTarget& operator=(OutputTarget&&) = delete;
  OutputTarget(const OutputTarget&) = delete;
  ~OutputTarget();

  // The folder, for the *at calls; -1 when it could not be opened (`error` says why). Taking it
  // leaves -1 here: the caller closes it.
  int folder_fd() const { return folder_fd_; }
  int take_folder_fd();

  TargetKind kind = TargetKind::missing;
  int error = 0;            // why it is missing (ENOENT: not there yet), or the folder is not open
  struct stat status {};    // valid unless kind is missing
  std::string name;         // the entry in the folder; a symbolic link only when `by_kernel`
  std::string folder;       // the folder's path, for messages and path-based checks
  std::string description;  // unsupported: "a socket", "a block device", ...
  std::optional<std::string> kernel_fs;  // the file itself is on procfs, sysfs, ...
  bool through_kernel_fs = false;  // a regular file reached through /proc or /dev/fd
  // The entry is in a kernel file system (/proc/self/fd/1) and only the kernel can follow it:
  // it is opened following links, and must then prove to be a device or a FIFO.
  bool by_kernel = false;

 private:
  friend OutputTarget inspect_output(const std::string& path);
  int folder_fd_ = -1;
};

OutputTarget inspect_output(const std::string& path);

// Why no output may be written to `target` whatever the permissions ("it is a folder", "it is a
// socket; ...", a regular file under /proc or reached through /dev/stdout), or nullopt.
std::optional<std::string> unusable_reason(const OutputTarget& target);

// "procfs", "sysfs", ... when `path` lies on a file system of kernel interfaces, where files
// cannot be created or replaced; nullopt otherwise (and when it cannot be told).
std::optional<std::string> kernel_filesystem(const std::string& path);

// The folder holding `path`: "." for a bare name, "/" for "/x".
std::string parent_folder(const std::string& path);

// The input (see protect_inputs in output_file.h) that is the file `status` describes, if any.
std::optional<std::string> protected_input(const struct stat& status);

// Throw "<cannot>: <reason>" (UsageError, or EnvironmentError for an OS failure) for a target no
// output may be written to: unusable_reason, a folder that cannot be opened (missing: "folder
// '...' does not exist; create it first"), an entry that cannot be looked at, a protected input.
void refuse_unusable(const OutputTarget& target, const std::string& cannot);
void refuse_input(const struct stat& status, const std::string& cannot);

}  // namespace mish
