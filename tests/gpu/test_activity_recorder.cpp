// The CUPTI activity recorder on the device: a call of tagged harness ops (a memset before, a
// small kernel after) around a backend's kernel and copy on the timed stream and a kernel on a
// side stream comes back with the right kinds, tags, streams and demangled names, and the
// judgement finds the side stream's kernel outside the call when it is not joined back and
// inside when an event joins it.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "base/cuda/cuda_check.cuh"
#include "base/cuda/device_buffer.h"
#include "base/cuda/read_probe.cuh"
#include "base/cuda/stream_gate.cuh"
#include "core/timing/activity_recorder.h"
#include "core/timing/gpu_activity.h"
#include "exec/executor/device_context.h"
#include "gpu_test_support.h"

namespace mish {
namespace {

class Event {
 public:
  Event() { MISH_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
  ~Event() { MISH_CUDA_CHECK_NOTHROW(cudaEventDestroy(event_)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

class MappedGate {
 public:
  MappedGate() {
    MISH_CUDA_CHECK(
        cudaHostAlloc(reinterpret_cast<void**>(&flags_), sizeof(GateFlags), cudaHostAllocMapped));
  }
  ~MappedGate() { MISH_CUDA_CHECK_NOTHROW(cudaFreeHost(flags_)); }
  MappedGate(const MappedGate&) = delete;
  MappedGate& operator=(const MappedGate&) = delete;
  GateFlags* get() const { return flags_; }

 private:
  GateFlags* flags_ = nullptr;
};

// One timed call: harness ops tagged on stream a, the backend's work untagged. The backend's
// side kernel on stream b, forked after the ops before the call, is held by a gate that the host
// opens only once stream a has finished, unless `join` makes a wait for it: so unjoined, it
// surely ends after the ops after the call.
struct Call {
  explicit Call(int sms)
      : sms(sms),
        poison(1 << 20),
        data(1 << 16),
        sink(read_sink_floats(sms)),
        from(1 << 16),
        to(1 << 16) {
    // Each kernel once first: a kernel's first launch loads its module (lazy loading), which
    // waits for the device, and so for a gate that the host has not opened yet.
    gate.get()->open = 1;
    launch_stream_gate(gate.get(), 0, a.get());
    launch_read_probe(data.get(), data.size(), sink.get(), sms, kReadProbeShapes[0], a.get());
    launch_l2_evicting_read(data.get(), data.size(), sink.get(), sms, a.get());
    MISH_CUDA_CHECK(cudaDeviceSynchronize());
  }

  void run(ActivityRecorder* recorder, bool join) {
    gate.get()->open = 0;
    gate.get()->timed_out = 0;
    {
      ActivityTag tag(recorder, harness_tag(0, TagRole::before));
      MISH_CUDA_CHECK(cudaMemsetAsync(poison.get(), 0xff, poison.bytes(), a.get()));
    }
    MISH_CUDA_CHECK(cudaEventRecord(fork.get(), a.get()));
    MISH_CUDA_CHECK(cudaStreamWaitEvent(b.get(), fork.get(), 0));
    launch_stream_gate(gate.get(), 10'000'000'000ull, b.get());
    launch_read_probe(data.get(), data.size(), sink.get(), sms, kReadProbeShapes[0], a.get());
    MISH_CUDA_CHECK(
        cudaMemcpyAsync(to.get(), from.get(), from.bytes(), cudaMemcpyDeviceToDevice, a.get()));
    if (join) {
      MISH_CUDA_CHECK(cudaEventRecord(joined.get(), b.get()));
      MISH_CUDA_CHECK(cudaStreamWaitEvent(a.get(), joined.get(), 0));
    }
    {
      ActivityTag tag(recorder, harness_tag(0, TagRole::after));
      launch_l2_evicting_read(data.get(), data.size(), sink.get(), sms, a.get());
    }
    if (!join) MISH_CUDA_CHECK(cudaStreamSynchronize(a.get()));
    gate.get()->open = 1;
    MISH_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(gate.get()->timed_out, 0);
  }

  int sms;
  Stream a, b;
  Event fork, joined;
  MappedGate gate;
  DeviceBuffer<float> poison;
  DeviceBuffer<float4> data;
  DeviceBuffer<float> sink;
  DeviceBuffer<float> from, to;
};

// The one record whose name contains `part`.
const GpuActivity& only(const std::vector<GpuActivity>& records, const std::string& part) {
  const GpuActivity* found = nullptr;
  for (const GpuActivity& r : records)
    if (r.name.find(part) != std::string::npos) {
      EXPECT_EQ(found, nullptr) << "two records named like '" << part << "'";
      found = &r;
    }
  if (found == nullptr) throw std::runtime_error("no record named like '" + part + "'");
  return *found;
}

// Opens the recorder into `recorder`; skips the test under a tool that holds CUPTI itself
// (compute-sanitizer), fails it where CUPTI cannot record otherwise.
#define MISH_OPEN_RECORDER(recorder)                                                           \
  std::string recorder##_why_;                                                                 \
  const std::unique_ptr<ActivityRecorder> recorder = ActivityRecorder::open(&recorder##_why_); \
  if (!recorder && recorder##_why_.find("MULTIPLE_SUBSCRIBERS") != std::string::npos)          \
    GTEST_SKIP() << "CUPTI is held by another tool: " << recorder##_why_;                      \
  ASSERT_TRUE(recorder) << "CUPTI cannot record: " << recorder##_why_

TEST(GpuActivityRecorder, RecordsTagsKindsStreamsAndNames) {
  MISH_REQUIRE_GPU();
  int sms = 0;
  MISH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  Call call(sms);
  MISH_OPEN_RECORDER(recorder);
  std::string why;
  EXPECT_FALSE(ActivityRecorder::open(&why));
  EXPECT_EQ(why, "another activity recorder is open in this process");

  const uint32_t a = recorder->stream_id(call.a.get()), b = recorder->stream_id(call.b.get());
  EXPECT_NE(a, b);
  recorder->start();
  call.run(recorder.get(), true);
  const std::vector<GpuActivity> records = recorder->stop();

  EXPECT_TRUE(std::is_sorted(
      records.begin(), records.end(),
      [](const GpuActivity& x, const GpuActivity& y) { return x.start_ns < y.start_ns; }));
  for (const GpuActivity& r : records) {
    EXPECT_LE(r.start_ns, r.end_ns) << r.name;
    EXPECT_GT(r.start_ns, 0u) << r.name;
    EXPECT_NE(r.name.rfind("_Z", 0), 0u) << "not demangled: " << r.name;
  }
  const GpuActivity& memset = only(records, "memset");
  EXPECT_EQ(memset.kind, GpuActivity::Kind::memset);
  EXPECT_EQ(memset.tag, harness_tag(0, TagRole::before));
  EXPECT_EQ(memset.stream, a);
  const GpuActivity& probe = only(records, "streaming_read_kernel<true>(");
  EXPECT_EQ(probe.kind, GpuActivity::Kind::kernel);
  EXPECT_EQ(probe.tag, 0u);
  EXPECT_EQ(probe.stream, a);
  EXPECT_NE(probe.name.find("mish::"), std::string::npos) << probe.name;
  const GpuActivity& copy = only(records, "memcpy");
  EXPECT_EQ(copy.name, "memcpy DtoD");
  EXPECT_EQ(copy.kind, GpuActivity::Kind::memcpy);
  EXPECT_EQ(copy.tag, 0u);
  EXPECT_EQ(copy.stream, a);
  const GpuActivity& side = only(records, "stream_gate_kernel(");
  EXPECT_EQ(side.kind, GpuActivity::Kind::kernel);
  EXPECT_EQ(side.tag, 0u);
  EXPECT_EQ(side.stream, b);
  const GpuActivity& after = only(records, "streaming_read_kernel<false>(");
  EXPECT_EQ(after.tag, harness_tag(0, TagRole::after));
  EXPECT_EQ(after.stream, a);
  EXPECT_LE(memset.end_ns, probe.start_ns);
  EXPECT_LE(copy.end_ns, after.start_ns);

  const ActivityVerdict joined = judge_activity(records, a);
  EXPECT_FALSE(joined.refused()) << describe_outside(joined);
  EXPECT_EQ(joined.calls, 1);
  EXPECT_EQ(joined.backend_records, 3u);
  EXPECT_EQ(joined.streams, (std::vector<uint32_t>{std::min(a, b), std::max(a, b)}));
}

TEST(GpuActivityRecorder, AnUnjoinedSideStreamIsOutside) {
  MISH_REQUIRE_GPU();
  int sms = 0;
  MISH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  Call call(sms);
  MISH_OPEN_RECORDER(recorder);
  const uint32_t a = recorder->stream_id(call.a.get()), b = recorder->stream_id(call.b.get());
  // Twice: a recorder records again after stop().
  for (bool join : {false, true}) {
    recorder->start();
    call.run(recorder.get(), join);
    const ActivityVerdict v = judge_activity(recorder->stop(), a);
    EXPECT_EQ(v.calls, 1);
    EXPECT_EQ(v.backend_records, 3u);
    if (join) {
      EXPECT_FALSE(v.refused()) << describe_outside(v);
      continue;
    }
    ASSERT_EQ(v.outside.size(), 1u) << describe_outside(v);
    EXPECT_NE(v.outside[0].name.find("stream_gate_kernel("), std::string::npos);
    EXPECT_EQ(v.outside[0].stream, b);
    EXPECT_EQ(v.outside[0].where, "after the stop event of call 0");
    EXPECT_GT(v.outside[0].ms_outside, 0.0);
    EXPECT_GT(v.outside_share(), 0.0);
    EXPECT_LE(v.outside_share(), 1.0);
  }
}

}  // namespace
}  // namespace mish
