// Where one backend's steps run. The steps (run/steps.h) drive an Executor and keep everything
// else (inputs, reference, output buffers, verdicts) to themselves: an Executor only sets the
// backend up, enqueues its work and times it. One Executor serves a backend for a whole run, one
// problem after another.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend/backend.h"
#include "core/outcome/outcome.h"
#include "core/timing/sampling.h"
#include "core/timing/timer.h"
#include "exec/executor/buffers.h"

namespace mish {

// The work one timed series repeats: a forward pass (plain launches), one of the backend's stages,
// or a replay of the captured CUDA graph.
struct Series {
  enum class Kind { plain, stage, graph };
  Kind kind = Kind::plain;
  size_t stage = 0;  // Kind::stage: index into SetupReport::stages
};

struct StageInfo {
  std::string name;
  StageKind kind = StageKind::gemm;
  double bytes = 0;  // epilogue stages: the least bytes they must move
};

// What setting a backend up on a problem tells the run.
struct SetupReport {
  double setup_ms = 0;
  bool prepacks_weights = false;
  std::vector<StageInfo> stages;  // empty unless run() has two or more stages
};

class Executor {
 public:
  virtual ~Executor() = default;
  virtual Support supports(const Problem& problem, const DeviceInfo* device) = 0;
  // Sets the backend up on `problem`, whose tensors and output store are in `buffers` (the
  // run's own).
  virtual SetupReport setup(const Problem& problem, ProblemBuffers& buffers) = 0;
  // Median milliseconds of a few timed weight preparations; only for backends that prepack.
  virtual double time_prepack() = 0;
  // Calls `series`' work as `plan` says (core/timing/sampling.h), every call prepared and its output
  // kept the same way, until the stopping rule says stop.
  virtual Sampling sample(const Series& series, const SampleSettings& settings,
                          const CallPlan& plan, const ProgressFn& on_progress) = 0;
  // Device backends without a kernel-level record (no CUPTI): `iterations` calls back to back
  // between two events, against device-synchronized wall time (AuditReading).
  virtual AuditReading audit(const Series& series, int iterations) = 0;
  // --graph: captures one forward pass (throws GraphCaptureError); returns the graph's node count.
  virtual size_t capture_graph() = 0;
  virtual nlohmann::json describe() = 0;
  // Running in a worker process: its cost so far, and its process ids (for the tenant check).
  virtual std::optional<IsolationReport> isolation() const { return std::nullopt; }
  virtual std::vector<unsigned> pids() const { return {}; }
};

// What an in-process executor works with: the run's stream and timer (both null for host
// backends; the timer flushes the L2 as the settings say), and how calls are made.
struct ExecutionEnv {
  cudaStream_t stream = nullptr;
  DeviceTimer* timer = nullptr;
  ExecutorSettings settings;
};

}  // namespace mish
