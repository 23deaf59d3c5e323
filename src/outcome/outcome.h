// What a run produced, as plain data: per problem and backend the status, timings, verification
// and details. The report, the console table and compare read these; nothing here knows CUDA.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "env/environment.h"
#include "outcome/backend_info.h"
#include "problem/problem.h"
#include "timing/sampling.h"
#include "timing/series.h"
#include "verify/verify.h"

namespace mish {

enum class Status { ok, mismatch, skipped, error };
std::string to_string(Status status);

// One stage of a backend timed on its own (Backend::stages()).
struct StageResult {
  std::string name;
  StageKind kind = StageKind::gemm;
  double bytes = 0;  // epilogue stages: the least bytes they must move
  TimedSeries timing;
};

// The plain-launch timing is the result's own TimedSeries (samples_ms, stats, clocks, ...).
struct BackendResult : TimedSeries {
  std::string backend;
  Status status = Status::ok;
  std::string reason;  // why skipped / errored / mismatched
  std::string math_mode;
  Accuracy expected_accuracy = Accuracy::fp32;
  nlohmann::json details;  // the backend's describe()
  double setup_ms = 0.0;
  std::optional<double> prepack_ms;  // median of a few timed prepacks; empty if the backend has none
  std::optional<Verification> verification;
  std::optional<TimedSeries> graph;  // --graph: replays of one captured forward pass
  std::optional<Verification> graph_verification;  // --graph: a replay's output, checked
  size_t graph_nodes = 0;
  std::vector<StageResult> stages;    // empty unless the backend has two or more stages
  std::vector<std::string> warnings;  // spread, warm-up, throttling (also printed on stderr)
};

struct ProblemRun {
  Problem problem;
  double generate_ms = 0.0;   // host input generation
  double reference_ms = 0.0;  // float64 reference (CBLAS dgemm + Mish)
  std::vector<BackendResult> results;
};

struct RunOutcome {
  std::optional<DeviceInfo> device;  // empty when only host backends ran
  std::optional<CopyBandwidth> copy_bandwidth;  // measured once per run with a device
  std::optional<unsigned> max_sm_mhz;           // from NVML, when available
  std::string clocks_note;                      // why clocks were not recorded, if they were not
  HostInfo host;
  std::vector<ProblemRun> runs;
  bool include_prepack = false;  // weight prepack timed inside every iteration
  // An error anywhere, or a mismatch of a backend expected to be fp32-accurate.
  bool any_failure() const;
};

}  // namespace mish
