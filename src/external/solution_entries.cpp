#include "external/solution_entries.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "common/errors.h"
#include "common/untrusted_text.h"
#include "plugins/plugin_library.h"
#include "plugins/plugin_text.h"
#include "plugins/sha256.h"
#include "worker/probe.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

constexpr size_t kSummaryReasonLimit = 120;

// The row of a solution whose worker did not answer: it runs like any other (a worker that
// fails to start again is its error), as a host backend, so that reporting it needs no GPU.
BackendEntry unanswered_entry(const std::string& path, const std::string& name,
                              const std::string& why) {
  BackendEntry entry;
  entry.info.name = name;
  entry.info.summary = shortened(fmt::format("solution {} (its worker did not start: {})",
                                             fs::path(path).filename().string(), one_line(why)),
                                 kSummaryReasonLimit);
  entry.info.math_mode = "fp32";
  entry.info.placement = Placement::host;
  entry.info.origin.kind = "solution";
  std::error_code error;
  entry.info.origin.path = fs::canonical(path, error).string();
  entry.info.origin.sha256 = sha256_file_hex(path);
  return entry;
}

}  // namespace

std::string default_solution_name(const std::string& path) {
  std::string name;
  for (char c : fs::path(path).stem().string()) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (!is_backend_name_character(c)) c = '-';
    if (name.empty() && (c == '.' || c == '_' || c == '-')) continue;
    if (name.size() < kMaxBackendNameLength) name += c;
  }
  return name.empty() ? "solution" : name;
}

std::vector<BackendEntry> solution_entries(const std::string& path, const SolutionRuntime& runtime,
                                           const RunConfig& config) {
  const std::string shown = for_terminal(path, kPathEchoLimit);
  std::error_code error;
  if (!fs::is_regular_file(path, error))
    throw UsageError(
        fmt::format("solution '{}' {}", shown,
                    fs::exists(path, error) ? "is not a regular file" : "does not exist"));
  const std::string name = default_solution_name(path);
  const std::vector<std::string> argv = runtime.worker_argv(path, name);
  std::vector<BackendEntry> entries;
  try {
    for (BackendInfo& info :
         probe_worker_backends(argv, path, "reading the solution", config.worker_limits.setup)) {
      BackendEntry entry;
      entry.info = std::move(info);
      entries.push_back(std::move(entry));
    }
  } catch (const UsageError&) {
    throw;  // the tool refuses the backend's table: a bad name or summary, as for a plugin
  } catch (const std::exception& failure) {
    entries = {unanswered_entry(path, name, failure.what())};
  }
  for (BackendEntry& entry : entries) {
    entry.isolated = true;  // whatever --isolate says: Python never runs in the tool
    entry.worker_argv = argv;
  }
  return entries;
}

std::vector<std::string> shipped_solutions(const std::string& folder,
                                           const std::vector<std::string>& names, bool every) {
  std::vector<std::string> files;
  if (folder.empty()) return files;
  std::error_code error;
  for (const fs::directory_entry& file : fs::directory_iterator(folder, error)) {
    const std::string name = file.path().stem().string();
    if (file.path().extension() != ".py") continue;
    if (every || std::find(names.begin(), names.end(), name) != names.end())
      files.push_back(file.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace mish
