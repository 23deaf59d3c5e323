// check_output_path, check_output_folder, same_output: the up-front checks that let a run refuse
// an unwritable output before it spends minutes computing what would be written there.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/os_error.h"
#include "base/io/output_file.h"
#include "base/io/output_target.h"

namespace mish {
namespace {

std::string quoted(const std::string& path) { return for_terminal(path, kPathEchoLimit); }

// With the effective ids, as the write itself will be done; EROFS for a read-only file system.
std::optional<std::string> access_refused(const std::string& path, int mode) {
  if (::faccessat(AT_FDCWD, path.c_str(), mode, AT_EACCESS) == 0) return std::nullopt;
  return os_reason(errno);
}

// Why no file can be created in `folder`, or nullopt when one can.
std::optional<std::string> folder_refuses_files(const std::string& folder) {
  struct stat status {};
  if (::stat(folder.c_str(), &status) != 0) {
    if (errno == ENOENT)
      return fmt::format("folder '{}' does not exist; create it first", quoted(folder));
    return fmt::format("folder '{}': {}", quoted(folder), os_reason(errno));
  }
  if (!S_ISDIR(status.st_mode)) return fmt::format("'{}' is not a folder", quoted(folder));
  if (const auto filesystem = kernel_filesystem(folder))
    return fmt::format("folder '{}' is on {}, a kernel interface, not a place for files",
                       quoted(folder), *filesystem);
  if (const auto reason = access_refused(folder, W_OK | X_OK))
    return fmt::format("cannot create files in folder '{}': {}", quoted(folder), *reason);
  return std::nullopt;
}

// "dump/" and "dump" are the same folder; "/" stays "/".
std::string without_trailing_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

}  // namespace

void check_output_path(const std::string& path, std::string_view flag,
                       const std::vector<std::string>& inputs) {
  const auto refuse = [&](const std::string& reason) {
    throw UsageError(fmt::format("{} '{}': {}", flag, quoted(path), reason));
  };
  if (path.empty()) refuse("the file name is empty");
  if (path.back() == '/') refuse("ends with '/', so it names a folder; give a file name");
  const OutputTarget target = inspect_output(path);
  if (const auto reason = unusable_reason(target)) refuse(*reason);
  if (target.kind == TargetKind::missing) {
    if (target.error != ENOENT) refuse(os_reason(target.error));
    if (const auto reason = folder_refuses_files(target.folder)) refuse(*reason);
    return;  // no input can be a file that does not exist
  }
  if (const auto reason = access_refused(path, W_OK))
    refuse(fmt::format("cannot be written: {}", *reason));
  if (target.kind == TargetKind::regular)
    if (const auto reason = folder_refuses_files(target.folder)) refuse(*reason);
  for (const std::string& input : inputs) {
    struct stat status {};
    if (::stat(input.c_str(), &status) == 0 && status.st_dev == target.status.st_dev &&
        status.st_ino == target.status.st_ino)
      refuse(fmt::format("is the same file as the input '{}'; writing it would destroy that input",
                         quoted(input)));
  }
}

void check_output_folder(const std::string& path, std::string_view flag) {
  const auto refuse = [&](const std::string& reason) {
    throw UsageError(fmt::format("{} '{}': {}", flag, quoted(path), reason));
  };
  if (path.empty()) refuse("the folder name is empty");
  const std::string folder = without_trailing_slashes(path);
  struct stat status {};
  if (::stat(folder.c_str(), &status) == 0) {
    if (!S_ISDIR(status.st_mode)) refuse("it exists and is not a folder");
    if (const auto reason = folder_refuses_files(folder)) refuse(*reason);
    return;
  }
  if (errno != ENOENT) refuse(os_reason(errno));
  if (const auto reason = folder_refuses_files(parent_folder(folder))) refuse(*reason);
}

bool same_output(const std::string& a, const std::string& b) {
  struct stat first {
  }, second{};
  const bool a_exists = ::stat(a.c_str(), &first) == 0, b_exists = ::stat(b.c_str(), &second) == 0;
  if (a_exists || b_exists)
    return a_exists && b_exists && first.st_dev == second.st_dev && first.st_ino == second.st_ino;
  namespace fs = std::filesystem;
  std::error_code error_a, error_b;
  const fs::path canonical_a = fs::weakly_canonical(fs::absolute(a, error_a), error_a);
  const fs::path canonical_b = fs::weakly_canonical(fs::absolute(b, error_b), error_b);
  return error_a || error_b ? a == b : canonical_a == canonical_b;
}

}  // namespace mish
