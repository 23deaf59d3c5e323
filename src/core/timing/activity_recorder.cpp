// The CUPTI side of the activity audit: buffers handed to CUPTI through its request/complete
// callbacks, records copied out of them under a mutex, the harness's tags joined to the records
// through CUPTI's external correlation, kernel names demangled.
#include "core/timing/activity_recorder.h"

#include <cupti.h>
#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "base/cuda/cuda_check.cuh"

namespace mish {
namespace {

[[noreturn]] void throw_cupti_error(CUptiResult result, const char* call) {
  const char* name = nullptr;
  if (cuptiGetResultString(result, &name) != CUPTI_SUCCESS || name == nullptr) name = "?";
  std::string text = fmt::format("{} failed: {} ({})", call, name, int(result));
  const char* message = nullptr;
  if (cuptiGetErrorMessage(result, &message) == CUPTI_SUCCESS && message != nullptr &&
      *message != '\0' && std::string(message) != name)
    text += fmt::format(": {}", message);
  if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
    text += " (another profiler or tool, such as compute-sanitizer or Nsight, holds CUPTI)";
  throw std::runtime_error(text);
}

#define MISH_CUPTI_CHECK(call)                                                                     \
  do {                                                                                             \
    const CUptiResult mish_cupti_status_ = (call);                                                 \
    if (mish_cupti_status_ != CUPTI_SUCCESS) ::mish::throw_cupti_error(mish_cupti_status_, #call); \
  } while (0)

// CONCURRENT_KERNEL rather than KERNEL: KERNEL serializes the kernels, which would hide exactly
// the overlap the audit is after. MEMCPY2 is the peer-to-peer copies. RUNTIME and DRIVER are there
// for the tags alone (their records are skipped): CUPTI writes an external correlation record
// only beside an API record, keyed by that call's correlation id, and a kernel launched through
// the runtime carries the runtime call's id (on an H200 with DRIVER alone no tag joined), one
// launched through the driver API the driver call's.
struct EnabledKind {
  CUpti_ActivityKind kind;
  const char* name;
};
constexpr EnabledKind kKinds[] = {
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL"},
    {CUPTI_ACTIVITY_KIND_MEMCPY, "CUPTI_ACTIVITY_KIND_MEMCPY"},
    {CUPTI_ACTIVITY_KIND_MEMCPY2, "CUPTI_ACTIVITY_KIND_MEMCPY2"},
    {CUPTI_ACTIVITY_KIND_MEMSET, "CUPTI_ACTIVITY_KIND_MEMSET"},
    {CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, "CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION"},
    {CUPTI_ACTIVITY_KIND_RUNTIME, "CUPTI_ACTIVITY_KIND_RUNTIME"},
    {CUPTI_ACTIVITY_KIND_DRIVER, "CUPTI_ACTIVITY_KIND_DRIVER"},
};
constexpr CUpti_ExternalCorrelationKind kTagKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;

constexpr size_t kBufferBytes = size_t(8) << 20;
constexpr size_t kBufferAlignment = 8;  // CUPTI's record alignment

// A record as it comes out of CUPTI's buffer, before the join and demangling.
struct RawRecord {
  GpuActivity::Kind kind;
  std::string name;  // mangled kernel name, or the memcpy's kind
  uint32_t stream, correlation;
  uint64_t start, end;
};

// What the callbacks collect for the open recorder. Never destroyed: CUPTI may hand back a
// buffer while the process exits.
struct Collected {
  std::mutex mutex;
  bool open = false;       // a recorder exists
  bool recording = false;  // between start() and stop(): keep what the buffers hold
  std::vector<RawRecord> records;
  std::unordered_map<uint32_t, uint64_t> tags;  // correlation id -> the tag pushed around it
  uint64_t dropped = 0;
  bool unreadable = false;  // a buffer that could not be read to its end
};

Collected& collected() {
  static Collected* c = new Collected;
  return *c;
}

std::string memcpy_name(uint8_t copy_kind) {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return "memcpy HtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return "memcpy AtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: return "memcpy AtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD: return "memcpy AtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return "memcpy DtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "memcpy DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "memcpy HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "memcpy PtoP";
    default: return "memcpy";
  }
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;  // no buffer: CUPTI counts the records dropped
  *max_records = 0;
}

// Copies the buffer's records out; runs on a CUPTI thread or inside cuptiActivityFlushAll.
void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream_id, uint8_t* buffer,
                               size_t /*size*/, size_t valid_size) {
  std::vector<RawRecord> records;
  std::vector<std::pair<uint32_t, uint64_t>> tags;
  bool unreadable = false;
  try {
    CUpti_Activity* record = nullptr;
    while (true) {
      const CUptiResult status = cuptiActivityGetNextRecord(buffer, valid_size, &record);
      if (status == CUPTI_ERROR_MAX_LIMIT_REACHED) break;
      if (status != CUPTI_SUCCESS) {
        unreadable = true;
        break;
      }
      switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
          const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
          records.push_back({GpuActivity::Kind::kernel, k->name != nullptr ? k->name : "",
                             k->streamId, k->correlationId, k->start, k->end});
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
          const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
          records.push_back({GpuActivity::Kind::memcpy, memcpy_name(m->copyKind), m->streamId,
                             m->correlationId, m->start, m->end});
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY2: {
          const auto* m = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record);
          records.push_back({GpuActivity::Kind::memcpy, memcpy_name(m->copyKind), m->streamId,
                             m->correlationId, m->start, m->end});
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
          const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
          records.push_back({GpuActivity::Kind::memset, "memset", m->streamId, m->correlationId,
                             m->start, m->end});
          break;
        }
        case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
          const auto* c = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
          if (c->externalKind == kTagKind) tags.emplace_back(c->correlationId, c->externalId);
          break;
        }
        default: break;
      }
    }
  } catch (...) {  // out of memory copying: the records are lost, which stop() reports
    unreadable = true;
  }
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped) != CUPTI_SUCCESS)
    unreadable = true;
  std::free(buffer);

  Collected& c = collected();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.recording) return;
  c.dropped += dropped;
  c.unreadable = c.unreadable || unreadable;
  try {
    c.records.insert(c.records.end(), std::make_move_iterator(records.begin()),
                     std::make_move_iterator(records.end()));
    for (const auto& [correlation, tag] : tags) c.tags[correlation] = tag;
  } catch (...) {
    c.unreadable = true;
  }
}

void disable_all() noexcept {
  for (const EnabledKind& k : kKinds) cuptiActivityDisable(k.kind);
}

// Enables every kind, or none: on an error the ones enabled are disabled again and it throws.
void enable_all() {
  try {
    for (const EnabledKind& k : kKinds) {
      const CUptiResult result = cuptiActivityEnable(k.kind);
      if (result != CUPTI_SUCCESS)
        throw_cupti_error(result, fmt::format("cuptiActivityEnable({})", k.name).c_str());
    }
  } catch (...) {
    disable_all();
    throw;
  }
}

std::string demangle(const std::string& name) {
  int status = 0;
  char* plain = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || plain == nullptr) return name;  // extern "C" kernels are not mangled
  std::string result(plain);
  std::free(plain);
  return result;
}

}  // namespace

std::unique_ptr<ActivityRecorder> ActivityRecorder::open(std::string* why_not) {
  auto fail = [&](const std::string& why) {
    if (why_not != nullptr) *why_not = why;
    return std::unique_ptr<ActivityRecorder>();
  };
  Collected& c = collected();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.open) return fail("another activity recorder is open in this process");
    c.open = true;
  }
  try {
    MISH_CUPTI_CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
    // Enabled once and disabled here, so that a driver without CUPTI or a tool already holding
    // it shows now rather than at start().
    enable_all();
    disable_all();
    MISH_CUPTI_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  } catch (const std::exception& error) {
    std::lock_guard<std::mutex> lock(c.mutex);
    c.open = false;
    return fail(error.what());
  }
  return std::unique_ptr<ActivityRecorder>(new ActivityRecorder());
}

ActivityRecorder::~ActivityRecorder() {
  Collected& c = collected();
  if (recording_) {
    disable_all();
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  }
  std::lock_guard<std::mutex> lock(c.mutex);
  c.recording = false;
  c.records.clear();
  c.tags.clear();
  c.open = false;
}

void ActivityRecorder::start() {
  if (recording_) throw std::runtime_error("the activity recorder is already recording");
  Collected& c = collected();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    c.records.clear();
    c.tags.clear();
    c.dropped = 0;
    c.unreadable = false;
    c.recording = true;
  }
  try {
    size_t earlier = 0;  // reading the count resets it: drops from before start() do not count
    MISH_CUPTI_CHECK(cuptiActivityGetNumDroppedRecords(nullptr, 0, &earlier));
    enable_all();
  } catch (...) {
    std::lock_guard<std::mutex> lock(c.mutex);
    c.recording = false;
    throw;
  }
  recording_ = true;
  tag_failed_ = false;
}

void ActivityRecorder::push_tag(uint64_t tag) {
  MISH_CUPTI_CHECK(cuptiActivityPushExternalCorrelationId(kTagKind, tag));
}

void ActivityRecorder::pop_tag() {
  MISH_CUPTI_CHECK(cuptiActivityPopExternalCorrelationId(kTagKind, nullptr));
}

void ActivityRecorder::pop_tag_nothrow() noexcept {
  if (cuptiActivityPopExternalCorrelationId(kTagKind, nullptr) != CUPTI_SUCCESS) tag_failed_ = true;
}

std::vector<GpuActivity> ActivityRecorder::stop() {
  if (!recording_) throw std::runtime_error("the activity recorder is not recording");
  Collected& c = collected();
  std::vector<RawRecord> raw;
  std::unordered_map<uint32_t, uint64_t> tags;
  uint64_t dropped = 0;
  bool unreadable = false;
  {
    // Stops recording whatever happens below; the records collected so far are dropped.
    struct Finish {
      ActivityRecorder* self;
      Collected& c;
      ~Finish() {
        self->recording_ = false;
        std::lock_guard<std::mutex> lock(c.mutex);
        c.recording = false;
        c.records.clear();
        c.tags.clear();
      }
    } finish{this, c};
    // A forced flush hands over records of unfinished work without their end: wait for it.
    const cudaError_t synced = cudaDeviceSynchronize();
    disable_all();
    MISH_CUPTI_CHECK(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    size_t late = 0;
    MISH_CUPTI_CHECK(cuptiActivityGetNumDroppedRecords(nullptr, 0, &late));
    MISH_CUDA_CHECK(synced);
    std::lock_guard<std::mutex> lock(c.mutex);
    raw.swap(c.records);
    tags.swap(c.tags);
    dropped = c.dropped + late;
    unreadable = c.unreadable;
  }
  if (dropped > 0)
    throw std::runtime_error(fmt::format(
        "CUPTI dropped {} activity records (its buffers were full or refused)", dropped));
  if (unreadable) throw std::runtime_error("an activity buffer from CUPTI could not be read");
  if (tag_failed_)
    throw std::runtime_error("a harness tag could not be popped: the records' tags are wrong");

  std::unordered_map<std::string, std::string> demangled;
  std::vector<GpuActivity> records;
  records.reserve(raw.size());
  for (RawRecord& r : raw) {
    if (r.start == 0 && r.end == 0)
      throw std::runtime_error(fmt::format("CUPTI has no timestamps for {} '{}' on stream {}",
                                           to_string(r.kind), r.name, r.stream));
    GpuActivity a;
    a.kind = r.kind;
    if (r.kind == GpuActivity::Kind::kernel) {
      auto it = demangled.find(r.name);
      if (it == demangled.end()) it = demangled.emplace(r.name, demangle(r.name)).first;
      a.name = it->second;
    } else {
      a.name = std::move(r.name);
    }
    a.stream = r.stream;
    a.start_ns = r.start;
    a.end_ns = r.end;
    const auto tag = tags.find(r.correlation);
    a.tag = tag != tags.end() ? tag->second : 0;
    records.push_back(std::move(a));
  }
  std::stable_sort(records.begin(), records.end(), [](const GpuActivity& x, const GpuActivity& y) {
    return x.start_ns != y.start_ns ? x.start_ns < y.start_ns : x.end_ns < y.end_ns;
  });
  return records;
}

uint32_t ActivityRecorder::stream_id(cudaStream_t stream) const {
  uint32_t id = 0;
  MISH_CUPTI_CHECK(cuptiGetStreamIdEx(nullptr, stream, 0, &id));
  return id;
}

ActivityTag::ActivityTag(ActivityRecorder* recorder, uint64_t tag) : recorder_(recorder) {
  if (recorder_ != nullptr) recorder_->push_tag(tag);
}

ActivityTag::~ActivityTag() {
  if (recorder_ != nullptr) recorder_->pop_tag_nothrow();
}

}  // namespace mish
