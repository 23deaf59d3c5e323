// Records every kernel, memcpy and memset the process runs on the GPU, with CUPTI's activity
// API, and which of them the harness marked as its own: the input of judge_activity
// (gpu_activity.h), which refuses a backend whose work runs outside its samples' events.
// CUPTI stays out of this header; only activity_recorder.cpp includes it.
#pragma once
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/timing/gpu_activity.h"

namespace mish {

class ActivityRecorder {
 public:
  // Null, with the reason in *why_not (may be null), where CUPTI cannot record here: no driver
  // or device, another profiler or tool already holding CUPTI (compute-sanitizer, Nsight), any
  // CUPTI error; also while another recorder is open (one per process at a time).
  static std::unique_ptr<ActivityRecorder> open(std::string* why_not);
  ~ActivityRecorder();
  ActivityRecorder(const ActivityRecorder&) = delete;
  ActivityRecorder& operator=(const ActivityRecorder&) = delete;

  // Begins recording concurrent kernels, memcpys, memsets and the tags' correlations; throws
  // std::runtime_error on a CUPTI error or when already recording.
  void start();

  // Marks the GPU work that the calling thread enqueues between push and pop with `tag` (CUPTI
  // external correlation, kind CUSTOM0). CUPTI keeps the pushed tags as a stack per thread.
  void push_tag(uint64_t tag);
  void pop_tag();

  // Synchronizes the current device, stops recording, flushes CUPTI's buffers and returns the
  // records since start(), tags joined through their correlation ids, sorted by start. Throws
  // std::runtime_error where the records are incomplete (CUPTI dropped some, a record has no
  // timestamps, a tag's pop failed) since a judgement on them would be wrong.
  std::vector<GpuActivity> stop();

  // CUPTI's id for `stream` (of the current context), as the records carry it.
  uint32_t stream_id(cudaStream_t stream) const;

 private:
  ActivityRecorder() = default;
  friend class ActivityTag;
  void pop_tag_nothrow() noexcept;

  bool recording_ = false;
  std::atomic<bool> tag_failed_{false};
};

// RAII push/pop of a tag: ActivityTag tag(recorder, harness_tag(c, TagRole::before)). A null
// recorder makes it a no-op.
class ActivityTag {
 public:
  ActivityTag(ActivityRecorder* recorder, uint64_t tag);
  ~ActivityTag();
  ActivityTag(const ActivityTag&) = delete;
  ActivityTag& operator=(const ActivityTag&) = delete;

 private:
  ActivityRecorder* recorder_;
};

}  // namespace mish
