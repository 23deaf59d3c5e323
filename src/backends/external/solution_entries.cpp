#include "backends/external/solution_entries.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "backends/plugins/plugin_library.h"
#include "backends/plugins/plugin_text.h"
#include "backends/plugins/sha256.h"
#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "exec/worker/probe.h"
#include "exec/worker/worker_process.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

// A solution whose worker did not report its backend: its Python could not run the worker, or
// the file's declarations could not be read. It fails at setup with the reason, without starting
// that worker again, and runs on the host so that reporting it needs no GPU.
class UnreportedSolution final : public Backend {
 public:
  UnreportedSolution(std::string name, BackendOrigin origin, std::string reason)
      : name_(std::move(name)), origin_(std::move(origin)), reason_(std::move(reason)) {}
  std::string_view name() const override { return name_; }
  std::string_view summary() const override { return reason_; }
  std::string_view math_mode() const override { return "fp32"; }
  Placement placement() const override { return Placement::host; }
  BackendOrigin origin() const override { return origin_; }
  void setup(const Problem&, const Tensors&, cudaStream_t) override { throw BackendError(reason_); }
  void run(const Tensors&, cudaStream_t) override { throw BackendError(reason_); }

 private:
  std::string name_;
  BackendOrigin origin_;
  std::string reason_;
};

BackendEntry unreported_entry(const std::string& path, const std::string& name,
                              const std::string& reason) {
  BackendOrigin origin;
  origin.kind = "solution";
  std::error_code error;
  origin.path = fs::canonical(path, error).string();
  origin.sha256 = sha256_file_hex(path);
  BackendEntry entry;
  entry.create = [name, origin, reason] {
    return std::make_unique<UnreportedSolution>(name, origin, reason);
  };
  entry.info = entry.create()->info();
  entry.unusable = reason;
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
  } catch (const WorkerNeverStarted& failure) {
    return {unreported_entry(
        path, name,
        fmt::format("the Python interpreter '{}' exited ({}) before the solution worker "
                    "started: give --python a Python 3 interpreter{}",
                    for_terminal(runtime.python, kPathEchoLimit), failure.end,
                    failure.last_output.empty() ? "" : "; its last output: " + failure.last_output))};
  } catch (const std::exception& failure) {
    return {unreported_entry(path, name,
                             fmt::format("its worker ({}) did not report the backend: {}",
                                         runtime.python, one_line(failure.what())))};
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
