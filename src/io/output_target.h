// What an output path names today: nothing yet, a regular file (and which one, through links),
// something written in place (a character device, a FIFO), a folder, or something no output may
// be (a socket, a block device). Shared by the up-front check and the writer.
#pragma once
#include <sys/stat.h>

#include <optional>
#include <string>

namespace mish {

enum class TargetKind { missing, regular, in_place, folder, unsupported };

struct OutputTarget {
  TargetKind kind = TargetKind::missing;
  int error = 0;            // stat's errno when kind is missing (ENOENT: simply not there yet)
  struct stat status {};    // valid unless kind is missing
  std::string file;         // a regular file: the real path, symbolic links resolved
  std::string folder;       // where a new file or a temporary file is created
  std::string description;  // unsupported: "a socket", "a block device", ...
  bool through_kernel_fs = false;  // reached through /proc or /dev/fd (an open descriptor)
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

}  // namespace mish
