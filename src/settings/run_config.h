// Everything one invocation does: problems, backends, sampling, tolerance, outputs.
// Built from defaults, then a JSON config file (--config), then command-line flags.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/problem/problem.h"
#include "core/timing/sampling.h"
#include "core/verify/verify.h"
#include "settings/device_selection.h"
#include "settings/worker_limits.h"

namespace mish {

// Which backends run in a worker process of their own: `automatic` (plugins and solutions), all
// of them, or none (plugins in the tool's own process; solutions always need their worker).
enum class Isolation { automatic, all, none };
std::string to_string(Isolation isolation);
Isolation parse_isolation(const std::string& name);  // throws UsageError

struct RunConfig {
  std::vector<Problem> problems{Problem{}};
  std::vector<std::string> backends{"all"};
  SampleSettings sampling;
  ExecutorSettings execution;  // --l2, --include-prepack
  bool graph = false;  // also time each device backend as replays of one captured CUDA graph
  Tolerance tolerance;
  std::string json_path;  // empty: no report file; "-": standard output
  std::string csv_path;       // the results as CSV; empty: none; "-": standard output
  std::string markdown_path;  // the results as a Markdown table, appended; empty: none
  std::string dump_dir;   // empty: no .npy dump
  // Per-backend options: {"fp16x3": {"chunks": 4}}; see Backend::configure.
  nlohmann::json backend_options = nlohmann::json::object();
  bool quiet = false;
  // Backends from outside the tool, and where backends run (docs/isolation.md).
  std::vector<std::string> plugins;  // plugin libraries (--plugin)
  std::vector<std::string> solutions;  // Python solution files (--solution)
  std::string python;                  // their interpreter (--python); empty: python3 on PATH
  Isolation isolate = Isolation::automatic;
  WorkerLimits worker_limits;
  // The CUDA devices the device backends run on, and whether several of them run at once.
  DeviceSelection devices;
  bool devices_parallel = false;
};

// Applies a parsed config document; throws UsageError naming `source` and the offending key on
// unknown keys, wrong types or bad values. See docs/cli.md for the keys.
void apply_config_json(const nlohmann::json& document, const std::string& source, RunConfig& config);

// Reads and applies a config file; throws UsageError if unreadable or invalid.
void apply_config_file(const std::string& path, RunConfig& config);

// Checks what single settings cannot (problem sizes together, a backend list); throws UsageError.
void validate(const RunConfig& config);

}  // namespace mish
