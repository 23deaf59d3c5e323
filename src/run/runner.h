// Runs a RunConfig: generate inputs, compute the reference, then per backend: check support, set
// up, poison the output, run once, verify every element, and only then time it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend.h"
#include "config/run_config.h"
#include "env/environment.h"
#include "timing/statistics.h"
#include "verify/verify.h"

namespace mish {

enum class Status { ok, mismatch, skipped, error };
std::string to_string(Status status);

struct BackendResult {
  std::string backend;
  Status status = Status::ok;
  std::string reason;  // why skipped / errored / mismatched
  std::string math_mode;
  Accuracy expected_accuracy = Accuracy::fp32;
  nlohmann::json details;  // the backend's describe()
  double setup_ms = 0.0;
  std::optional<double> prepack_ms;  // median of a few timed prepacks; empty if the backend has none
  std::optional<Verification> verification;
  std::vector<double> samples_ms;
  TimingStats stats;
};

struct ProblemRun {
  Problem problem;
  double generate_ms = 0.0;   // host input generation
  double reference_ms = 0.0;  // float64 reference (CBLAS dgemm + Mish)
  std::vector<BackendResult> results;
};

struct RunOutcome {
  std::optional<DeviceInfo> device;  // empty when only host backends ran
  HostInfo host;
  std::vector<ProblemRun> runs;
  bool include_prepack = false;  // weight prepack timed inside every iteration
  // An error anywhere, or a mismatch of a backend expected to be fp32-accurate.
  bool any_failure() const;
};

// Throws UsageError for bad backend names, EnvironmentError when a GPU backend has no device or
// the problem does not fit in device memory.
RunOutcome run_benchmark(const RunConfig& config);

// Bytes of device memory a problem needs besides backend workspaces: x, W, b, y and the L2 flush
// buffer.
uint64_t base_device_bytes(const Problem& problem, const DeviceInfo& device, L2Mode l2);

}  // namespace mish
