#include "base/env/install_layout.h"

#include <unistd.h>

#include <array>
#include <climits>
#include <string_view>

#include "base/common/errors.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

fs::path own_folder() { return fs::path(own_executable()).parent_path(); }

bool is_path_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '.' || c == '/' || c == '-';
}

// Where a shipped path may be: include/... in the prefix's include folder, the others in the
// data folder. Empty for a path of no shipped folder.
std::vector<fs::path> shipped_candidates(std::string_view path) {
  constexpr std::string_view kInclude = "include/";
  if (path.substr(0, kInclude.size()) == kInclude)
    return {own_folder() / MISHBENCH_BIN_TO_INCLUDE / path.substr(kInclude.size())};
  constexpr std::array<std::string_view, 3> kDataFolders = {"configs/", "docs/", "scripts/"};
  for (std::string_view folder : kDataFolders)
    if (path.substr(0, folder.size()) == folder) {
      std::vector<fs::path> candidates;
      for (const fs::path& data : data_folders()) candidates.push_back(data / path);
      return candidates;
    }
  return {};
}

}  // namespace

std::string own_executable() {
  char path[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0) throw EnvironmentError("cannot find this program's own path (/proc/self/exe)");
  return std::string(path, static_cast<size_t>(n));
}

std::vector<fs::path> library_folders() {
  const fs::path here = own_folder();
  return {here, here / MISHBENCH_BIN_TO_LIB};
}

std::vector<fs::path> data_folders() {
  const fs::path here = own_folder();
  return {here / "share" / "mishbench", here / MISHBENCH_BIN_TO_DATA};
}

std::string first_existing(const std::vector<fs::path>& candidates) {
  for (const fs::path& candidate : candidates) {
    std::error_code error;
    if (fs::exists(candidate, error)) return fs::canonical(candidate, error).string();
  }
  return "";
}

std::string with_shipped_paths(const std::string& text) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    const bool starts_word = at == 0 || !is_path_character(text[at - 1]);
    size_t end = at;
    while (starts_word && end < text.size() && is_path_character(text[end])) ++end;
    while (end > at && text[end - 1] == '.') --end;  // the end of a sentence
    if (end == at) {
      out += text[at++];
      continue;
    }
    const std::string path = text.substr(at, end - at);
    std::string found;
    try {
      found = first_existing(shipped_candidates(path));
    } catch (const EnvironmentError&) {  // no own path: the text as written
    }
    out += found.empty() ? path : found;
    at = end;
  }
  return out;
}

}  // namespace mish
