// protect_inputs and the list the writers consult: each input by its device and inode, which is
// what a second name, a hard link or a symbolic link swapped in cannot change.
#include <sys/stat.h>

#include <mutex>
#include <vector>

#include "base/io/output_file.h"
#include "base/io/output_target.h"

namespace mish {
namespace {

struct Input {
  dev_t device;
  ino_t inode;
  std::string path;
};

std::mutex inputs_mutex;
std::vector<Input> inputs;  // few: a config, some plugins and solutions, two reports

}  // namespace

void protect_input(const struct stat& status, const std::string& path) {
  const std::lock_guard<std::mutex> lock(inputs_mutex);
  for (const Input& input : inputs)
    if (input.device == status.st_dev && input.inode == status.st_ino) return;
  inputs.push_back({status.st_dev, status.st_ino, path});
}

void protect_inputs(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0) protect_input(status, path);
  }
}

std::optional<std::string> protected_input(const struct stat& status) {
  const std::lock_guard<std::mutex> lock(inputs_mutex);
  for (const Input& input : inputs)
    if (input.device == status.st_dev && input.inode == status.st_ino) return input.path;
  return std::nullopt;
}

}  // namespace mish
