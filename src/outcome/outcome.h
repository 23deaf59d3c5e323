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

// An input a backend wrote into, found by comparing the inputs bit for bit after its run.
struct InputChange {
  std::string tensor;  // "x", "W" or "b"
  uint64_t changed = 0, count = 0;
  uint64_t first = 0;  // index of the first changed element
};

// A timing audit of one series (Executor::audit): events against device-synchronized wall time.
struct TimingAudit {
  std::string series;  // "fused", "fused/gemm", "fused graph"
  AuditReading reading;
  bool refused = false;  // the events undercount beyond the documented margin
};

// Another process that held a compute context on the GPU while this backend's samples were taken.
struct OtherProcess {
  unsigned pid = 0;
  std::string name;  // from /proc, when it can be read
  uint64_t used_bytes = 0;
};

// What running the backend in a worker process cost (--isolate).
struct IsolationReport {
  double start_ms = 0;       // spawning the worker up to its first answer, backend made
  double round_trip_ms = 0;  // median of a few empty requests
  int starts = 0;            // workers started for this backend so far in the run
  std::string output;        // the last of what the worker printed (stdout and stderr)
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
  BackendOrigin origin;
  std::optional<IsolationReport> isolation;  // ran in a worker process
  // The honesty checks: the output verified again with fresh x after the timed series, the
  // timing audits, the inputs found changed, other processes on the GPU.
  std::optional<Verification> fresh_input_verification;
  std::vector<TimingAudit> timing_audits;
  std::vector<InputChange> inputs_changed;
  std::vector<OtherProcess> other_processes;
  std::optional<size_t> device;  // where it ran: an index into RunOutcome::devices; none: host
};

struct ProblemRun {
  Problem problem;
  double generate_ms = 0.0;   // host input generation
  double reference_ms = 0.0;  // float64 reference (CBLAS dgemm + Mish)
  std::vector<BackendResult> results;
};

// One CUDA device a run used: its facts and what was measured on it once, when it was opened.
struct DeviceRecord {
  DeviceInfo info;
  std::optional<CopyBandwidth> copy_bandwidth;
  std::optional<ReadBandwidth> read_bandwidth;
  std::optional<unsigned> max_sm_mhz;  // from NVML, when available
  std::string clocks_note;             // why clocks were not recorded, if they were not
};

struct RunOutcome {
  std::vector<DeviceRecord> devices;  // in the order they ran; empty when only host backends ran
  bool devices_parallel = false;      // several devices ran at the same time
  HostInfo host;
  std::vector<ProblemRun> runs;
  bool include_prepack = false;  // weight prepack timed inside every iteration
  // An error anywhere, or a mismatch of a backend expected to be fp32-accurate.
  bool any_failure() const;
  // The device `result` ran on. A host backend's is the run's first device: its roofline and
  // speedup are taken against that one, as in a run with one device. Null without a device.
  const DeviceRecord* device_of(const BackendResult& result) const;
};

}  // namespace mish
