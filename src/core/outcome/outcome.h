// What a run produced, as plain data: per problem and backend the status, timings, verification
// and details. The report, the console table and compare read these; nothing here knows CUDA.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/env/environment.h"
#include "core/outcome/backend_info.h"
#include "core/problem/problem.h"
#include "core/timing/gpu_activity.h"
#include "core/timing/sampling.h"
#include "core/timing/series.h"
#include "core/verify/verify.h"

namespace mish {

// implausible: a median below the problem's physical floor (core/verify/plausibility.h).
enum class Status { ok, mismatch, skipped, error, implausible };
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

// The outputs of one series' calls, checked after it (run/call_checker.h).
struct CallsCheck {
  std::string series;     // "fused", "fused graph", "fused/gemm", "fused audit"
  uint64_t calls = 0;     // calls made, warm-up included
  uint64_t checked = 0;   // outputs checked: every call, or a uniform sample of them
  uint64_t failed = 0;
  std::optional<uint64_t> first_failed;  // the first failing call, counted from the series' first
  std::string reference;  // which reference checked the calls on fresh x
  std::optional<Verification> worst;  // the checked call furthest outside the tolerance
};

// A timing audit of one series. "kernels": every kernel, copy and memset the backend's process
// ran during an audit series, recorded with CUPTI, held against the calls' timed regions.
// "wall": where CUPTI cannot record, the events against device-synchronized wall time.
struct TimingAudit {
  std::string series;  // "fused", "fused graph"
  std::string mode;    // "kernels" or "wall"
  std::string note;    // why the wall-time audit was used
  // kernels
  int calls = 0;
  uint64_t records = 0;
  double backend_gpu_ms = 0;
  std::vector<uint32_t> streams;
  std::vector<OutsideWork> outside;
  // wall
  AuditReading reading;
  bool refused = false;
};

// Another process that held a compute context on the GPU while this backend's samples were taken.
struct OtherProcess {
  unsigned pid = 0;
  std::string name;  // from /proc, when it can be read
  uint64_t used_bytes = 0;
};

// "pid 8877 (mishbench)", the name escaped (another process chose it), or "name not visible".
std::string process_label(const OtherProcess& process);

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
  std::optional<Verification> graph_verification;  // --graph: the worst checked replay
  size_t graph_nodes = 0;
  std::vector<StageResult> stages;    // empty unless the backend has two or more stages
  std::vector<std::string> warnings;  // spread, warm-up, throttling (also printed on stderr)
  BackendOrigin origin;
  std::optional<IsolationReport> isolation;  // ran in a worker process
  // The honesty checks: the outputs of the calls checked after each series, the timing audits,
  // the inputs found changed, other processes on the GPU (then the figures are disturbed:
  // shared_gpu, which compare will not gate on).
  std::vector<CallsCheck> call_checks;
  std::vector<TimingAudit> timing_audits;
  std::vector<InputChange> inputs_changed;
  std::vector<OtherProcess> other_processes;
  bool shared_gpu = false;
  std::optional<size_t> device;  // where it ran: an index into RunOutcome::devices; none: host
};

// An error, an implausible time, or a mismatch of a backend expected to be fp32-accurate: what
// makes the run's exit code 1.
bool fails_the_run(const BackendResult& result);

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
  // Why device backends were skipped for want of a CUDA device; empty when none was missing.
  std::string missing_device;
  // A result anywhere that fails_the_run.
  bool any_failure() const;
  // The device `result` ran on. A host backend's is the run's first device: its roofline and
  // speedup are taken against that one, as in a run with one device. Null without a device.
  const DeviceRecord* device_of(const BackendResult& result) const;
};

}  // namespace mish
