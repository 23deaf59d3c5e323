// The GPU work a process ran, as CUPTI's activity records give it (activity_recorder.h), and the
// judgement on it: did a backend's work all run between its samples' start and stop events?
// CUDA events on the timed stream see only that stream, so a backend that leaves work running on
// another stream past its stop event, or starts it before the start event, is timed short. Plain
// data and pure functions, no CUDA, so the judgement is tested on hand-made records.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace mish {

struct GpuActivity {
  enum class Kind { kernel, memcpy, memset };
  Kind kind = Kind::kernel;
  std::string name;     // demangled kernel name; "memcpy HtoD", "memcpy DtoD", ...; "memset"
  uint32_t stream = 0;  // CUPTI stream id
  uint64_t start_ns = 0, end_ns = 0;  // GPU timestamps (CUPTI clock)
  uint64_t tag = 0;  // the harness's mark (harness_tag), 0: not the harness's (the backend's)
};

std::string to_string(GpuActivity::Kind kind);  // "kernel", "memcpy", "memset"

// How the harness marks its own operations: call index c (0-based) and whether the op comes
// before the call's start event or after its stop event.
enum class TagRole : uint64_t { before = 1, after = 2 };
uint64_t harness_tag(uint64_t call, TagRole role);  // ((call + 1) << 2) | role: never 0

// One piece of the backend's work outside every window.
struct OutsideWork {
  std::string name;
  GpuActivity::Kind kind = GpuActivity::Kind::kernel;
  uint32_t stream = 0;
  double ms_outside = 0;  // its duration outside the windows
  // "after the stop event of call 3" (it started inside call 3's window), "before the start
  // event of call 0" (it ran on into call 0's window), "between calls 3 and 4", "before the
  // first call", "after the last call" (wholly in that gap).
  std::string where;
};

struct ActivityVerdict {
  int calls = 0;  // windows found
  uint64_t backend_records = 0;
  double backend_gpu_ms = 0;         // sum of durations of the backend's records
  std::vector<OutsideWork> outside;  // in time order
  double outside_ms = 0;             // total outside
  double outside_share() const;      // outside_ms / backend_gpu_ms (0 if none)
  std::vector<uint32_t> streams;     // streams the backend's work ran on, ascending
  bool refused() const { return !outside.empty(); }
};

// Windows: for call c, [latest end of tag(c, before) records on `timed_stream`, earliest start
// of tag(c, after) records on `timed_stream`]. Every untagged record must lie wholly inside one
// window (edges included); each part outside is reported. Tagged records on other streams are
// the harness's and play no part. Throws std::runtime_error, a harness bug rather than the
// backend's, when no window is found, a call lacks its before or after op on the timed stream, a
// tag is no harness_tag, or windows overlap or end before they begin.
ActivityVerdict judge_activity(const std::vector<GpuActivity>& records, uint32_t timed_stream);

// One line for a refusal's reason: the first few pieces outside by name, stream, where and
// time, then how many more and the total.
std::string describe_outside(const ActivityVerdict& verdict);

}  // namespace mish
