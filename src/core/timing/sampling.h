// What a sampling loop is asked to do and what it produced, as plain data: warm-up, L2 mode and
// stopping rule in; samples, clock readings and stream-gate timeouts out. No CUDA here, so results
// and reports can carry them (the loops themselves are in timer.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/timing/clocks.h"
#include "core/timing/gpu_activity.h"
#include "core/timing/stopping.h"

namespace mish {

// flush: overwrite a buffer of twice the L2 size before every sample, outside the timed events,
// so each sample starts cold (as KernelBench and nvbench do). hot: samples run back to back.
enum class L2Mode { flush, hot };
std::string to_string(L2Mode mode);
L2Mode parse_l2_mode(const std::string& name);  // throws UsageError

// Bytes the L2 flush overwrites before each sample: twice the L2, 0 when not flushing.
inline uint64_t l2_flush_bytes(uint64_t l2_bytes, L2Mode mode) {
  return mode == L2Mode::flush ? 2 * l2_bytes : 0;
}

// How long the stream gate holds a sample's work waiting for the host to finish enqueuing it:
// long enough for any sane enqueue, short enough that a blocking one does not look like a hang.
constexpr double kGateTimeoutSeconds = 2.0;

// Warm-up and the stopping rule (iters, min_time_s, max_noise, timeout_s) of one series.
struct SampleSettings : StoppingRule {
  int warmup = 10;
};

// How every call of a run is made, in both executors alike: the L2 before each call, and whether
// the weight preparation is part of each call. A worker gets them once, when it opens its backend
// (exec/worker/protocol.h).
struct ExecutorSettings {
  L2Mode l2 = L2Mode::flush;
  bool include_prepack = false;  // time weight preparation inside every iteration
};

// How the calls of one series are made (docs/isolation.md). Every call of a backend's work looks
// the same to it, warm-up and audit calls included: before it, x gets fresh contents and y is
// poisoned; after it, y is copied into the run's output store for checking. The x of a call is
// drawn with call_seed(nonce, first_call + index) (exec/executor/call_hooks.h), from a nonce the
// run draws from the operating system's random source and never hands to a backend; the series'
// first call uses the problem's own x instead where `main_x_first` says so (the call checked
// against the CPU reference).
struct CallPlan {
  uint64_t nonce = 0;
  uint64_t first_call = 0;  // the series' first call, counted over the backend's whole run
  bool main_x_first = false;
  bool record_activity = false;  // the audit: record every kernel, copy and memset (CUPTI)
};

// One call whose output sits in the output store after the series: which call, in which slot.
struct KeptOutput {
  uint64_t call = 0;  // counted like CallPlan::first_call
  uint32_t slot = 0;
};

// What one sampling loop produced.
struct Sampling {
  std::vector<double> samples_ms;
  StopReason stopped_by = StopReason::iters;
  // One reading per sample (device sampling with a ClockMonitor), taken while the sample's work
  // was in flight; nullopt where the read failed.
  std::vector<std::optional<ClockReading>> clocks;
  int gate_timeouts = 0;  // samples whose enqueue blocked the host (see base/cuda/stream_gate.cuh)
  uint64_t calls = 0;     // calls made, warm-up included
  std::vector<KeptOutput> kept;  // the calls whose outputs were kept for checking
  // With CallPlan::record_activity: the process's GPU work during the series and the timed
  // stream's id, or why it could not be recorded.
  std::vector<GpuActivity> activity;
  uint32_t timed_stream = 0;
  std::string activity_note;
};

// A timing audit: `iterations` runs of a series' work enqueued back to back, timed by events on
// the timed stream and by the host clock from one device synchronization to the next. Work the
// events do not see (another stream, the host) shows as wall time beyond them.
struct AuditReading {
  int iterations = 0;
  double events_ms = 0;
  double wall_ms = 0;
};

// Device-to-device copy bandwidth: the median of timed copies of `bytes_per_copy`, counting the
// bytes read plus the bytes written (2 x bytes per copy), the unit the epilogue's GB/s uses.
struct CopyBandwidth {
  uint64_t bytes_per_copy = 0;
  double median_ms = 0;
  double gb_per_s = 0;  // 2 * bytes_per_copy / median, in 1e9 bytes per second
};

// Device read bandwidth: the median of timed streaming reads of `bytes` (base/cuda/read_probe.cuh),
// for the fastest of a few grid shapes.
struct ReadBandwidth {
  uint64_t bytes = 0;
  double median_ms = 0;
  double gb_per_s = 0;  // bytes / median, in 1e9 bytes per second
};

}  // namespace mish
