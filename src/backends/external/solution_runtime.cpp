#include "backends/external/solution_runtime.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "backends/external/backend_table.h"
#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/env/install_layout.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultPython = "python3";
constexpr const char* kWorkerLibrary = "libmishbench_worker.so";
constexpr const char* kWorkerScript = "solution_worker.py";
constexpr const char* kShippedFolder = "solutions";

bool is_executable_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

// `name` as a shell finds it: a path when it has a slash, else the first executable file of
// that name in a folder of PATH (an empty entry is the current folder). Empty when none.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return is_executable_file(name) ? name : "";
  const char* path = std::getenv("PATH");
  const std::string folders = path != nullptr ? path : "";
  size_t start = 0;
  while (start <= folders.size()) {
    const size_t colon = std::min(folders.find(':', start), folders.size());
    const std::string folder = folders.substr(start, colon - start);
    const fs::path candidate = fs::path(folder.empty() ? "." : folder) / name;
    if (is_executable_file(candidate)) return candidate.string();
    start = colon + 1;
  }
  return "";
}

// first_existing, or EnvironmentError naming every candidate.
std::string required(const std::vector<fs::path>& candidates, const char* what) {
  std::string found = first_existing(candidates);
  if (!found.empty()) return found;
  std::vector<std::string> shown;
  for (const fs::path& candidate : candidates)
    shown.push_back(for_terminal(candidate.string(), kPathEchoLimit));
  throw EnvironmentError(fmt::format(
      "the Python solution worker's {} is missing (looked for {}); rebuild or reinstall mishbench",
      what, fmt::join(shown, " and ")));
}

}  // namespace

std::vector<std::string> SolutionRuntime::worker_argv(const std::string& path,
                                                      const std::string& default_name) const {
  return {python,       worker_script, "--library",      worker_library,
          "--solution", path,          "--default-name", default_name};
}

SolutionRuntime find_solution_runtime(const RunConfig& config) {
  SolutionRuntime runtime;
  if (config.python.empty()) {
    runtime.python = find_program(kDefaultPython);
    if (runtime.python.empty()) runtime.python = kDefaultPython;  // fails to start, per solution
  } else {
    runtime.python = find_program(config.python);
    if (runtime.python.empty())
      throw UsageError(fmt::format(
          "--python '{}' is not an executable file{}; give the path of a Python 3 interpreter",
          for_terminal(config.python, kPathEchoLimit),
          config.python.find('/') == std::string::npos ? " on PATH" : ""));
  }
  std::vector<fs::path> libraries;
  for (const fs::path& folder : library_folders()) libraries.push_back(folder / kWorkerLibrary);
  runtime.worker_library = required(libraries, "library");
  runtime.worker_script =
      required({fs::path(required(data_folders(), "folder")) / kWorkerScript}, "script");
  return runtime;
}

std::string shipped_solutions_folder() {
  const std::string data = first_existing(data_folders());
  return data.empty() ? "" : (fs::path(data) / kShippedFolder).string();
}

}  // namespace mish
