// The activity judgement on hand-made records: backend work inside its calls' windows (a joined
// side stream included) passes; work after a stop event, before a start event, between calls or
// across a window's edge is refused with the part outside measured; missing harness operations
// are the harness's error; the reason line names the first pieces and counts the rest.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/timing/gpu_activity.h"
#include "thrown.h"

namespace mish {
namespace {

constexpr uint32_t kTimed = 7;
constexpr uint32_t kSide = 14;

// Call c occupies [c * 100 us, (c + 1) * 100 us): the harness's ops before its start event end at
// +10 us, its ops after the stop event start at +60 us, so its window is [+10 us, +60 us].
uint64_t at(uint64_t call, uint64_t us) { return call * 100000 + us * 1000; }

GpuActivity record(GpuActivity::Kind kind, std::string name, uint32_t stream, uint64_t start,
                   uint64_t end, uint64_t tag = 0) {
  GpuActivity a;
  a.kind = kind;
  a.name = std::move(name);
  a.stream = stream;
  a.start_ns = start;
  a.end_ns = end;
  a.tag = tag;
  return a;
}

GpuActivity kernel(std::string name, uint32_t stream, uint64_t start, uint64_t end) {
  return record(GpuActivity::Kind::kernel, std::move(name), stream, start, end);
}

// The harness's ops of `calls` calls on the timed stream: gate, x generation, poison memset and
// L2 flush before; the copy of y after.
std::vector<GpuActivity> harness(uint64_t calls) {
  std::vector<GpuActivity> ops;
  for (uint64_t c = 0; c < calls; ++c) {
    const uint64_t before = harness_tag(c, TagRole::before), after = harness_tag(c, TagRole::after);
    ops.push_back(record(GpuActivity::Kind::kernel, "stream_gate_kernel", kTimed, at(c, 0),
                         at(c, 2), before));
    ops.push_back(
        record(GpuActivity::Kind::kernel, "generate_x", kTimed, at(c, 2), at(c, 4), before));
    ops.push_back(record(GpuActivity::Kind::memset, "memset", kTimed, at(c, 4), at(c, 5), before));
    ops.push_back(
        record(GpuActivity::Kind::kernel, "l2_flush", kTimed, at(c, 5), at(c, 10), before));
    ops.push_back(
        record(GpuActivity::Kind::memcpy, "memcpy DtoD", kTimed, at(c, 60), at(c, 62), after));
  }
  return ops;
}

// The backend's honest work in every call: a GEMM on the timed stream, an epilogue on a side
// stream that is joined back before the stop event.
std::vector<GpuActivity> honest(uint64_t calls) {
  std::vector<GpuActivity> records = harness(calls);
  for (uint64_t c = 0; c < calls; ++c) {
    records.push_back(kernel("gemm_kernel", kTimed, at(c, 10), at(c, 40)));
    records.push_back(kernel("epilogue_kernel", kSide, at(c, 30), at(c, 60)));
  }
  return records;
}

TEST(GpuActivity, HarnessTagsAreNonzeroAndDistinct) {
  std::vector<uint64_t> tags;
  for (uint64_t c = 0; c < 100; ++c)
    for (TagRole role : {TagRole::before, TagRole::after}) tags.push_back(harness_tag(c, role));
  EXPECT_EQ(std::count(tags.begin(), tags.end(), 0u), 0);
  std::sort(tags.begin(), tags.end());
  EXPECT_EQ(std::unique(tags.begin(), tags.end()), tags.end());
}

TEST(GpuActivity, WorkInsideTheWindowsIsNotRefused) {
  std::vector<GpuActivity> records = honest(3);
  // A memcpy and a memset of the backend's, both wholly inside call 1, edges touching.
  records.push_back(record(GpuActivity::Kind::memcpy, "memcpy DtoD", kSide, at(1, 10), at(1, 11)));
  records.push_back(record(GpuActivity::Kind::memset, "memset", kTimed, at(1, 59), at(1, 60)));
  // The order the records come in does not matter.
  std::shuffle(records.begin(), records.end(), std::mt19937(1));
  const ActivityVerdict v = judge_activity(records, kTimed);
  EXPECT_FALSE(v.refused());
  EXPECT_EQ(v.calls, 3);
  EXPECT_EQ(v.backend_records, 8u);
  EXPECT_DOUBLE_EQ(v.backend_gpu_ms, 3 * (0.030 + 0.030) + 0.001 + 0.001);
  EXPECT_EQ(v.outside_ms, 0.0);
  EXPECT_EQ(v.outside_share(), 0.0);
  EXPECT_EQ(v.streams, (std::vector<uint32_t>{kTimed, kSide}));
  EXPECT_EQ(describe_outside(v), "all of the backend's GPU work ran inside the timed region");
}

TEST(GpuActivity, HarnessWorkOnOtherStreamsIsNotTheBackends) {
  std::vector<GpuActivity> records = honest(2);
  // A tagged copy on another stream, long after the last call: the harness's, not judged.
  records.push_back(record(GpuActivity::Kind::memcpy, "memcpy DtoH", 3, at(5, 0), at(5, 50),
                           harness_tag(1, TagRole::after)));
  const ActivityVerdict v = judge_activity(records, kTimed);
  EXPECT_FALSE(v.refused());
  EXPECT_EQ(v.backend_records, 4u);
}

TEST(GpuActivity, KernelAfterTheStopEventIsRefused) {
  std::vector<GpuActivity> records = harness(3);
  for (uint64_t c = 0; c < 3; ++c)
    records.push_back(kernel("gemm_kernel", kTimed, at(c, 10), at(c, 50)));
  // Call 2's epilogue, on a side stream nobody joined, runs 21 us past the stop event.
  records.push_back(kernel("epilogue_kernel", kSide, at(2, 50), at(2, 81)));
  const ActivityVerdict v = judge_activity(records, kTimed);
  ASSERT_TRUE(v.refused());
  ASSERT_EQ(v.outside.size(), 1u);
  const OutsideWork& w = v.outside[0];
  EXPECT_EQ(w.name, "epilogue_kernel");
  EXPECT_EQ(w.kind, GpuActivity::Kind::kernel);
  EXPECT_EQ(w.stream, kSide);
  EXPECT_EQ(w.where, "after the stop event of call 2");
  EXPECT_DOUBLE_EQ(w.ms_outside, 0.021);
  EXPECT_DOUBLE_EQ(v.outside_ms, 0.021);
  EXPECT_DOUBLE_EQ(v.backend_gpu_ms, 3 * 0.040 + 0.031);
  EXPECT_DOUBLE_EQ(v.outside_share(), 0.021 / 0.151);
  EXPECT_EQ(v.streams, (std::vector<uint32_t>{kTimed, kSide}));
  EXPECT_EQ(describe_outside(v),
            "kernel 'epilogue_kernel' on stream 14 ran outside the timed region (after the stop "
            "event of call 2), 0.021 ms, 13.9% of the backend's GPU time");
}

TEST(GpuActivity, WorkBeforeTheStartEventIsRefused) {
  std::vector<GpuActivity> records = honest(2);
  // A side-stream kernel that starts during call 0's L2 flush, 8 us before the start event.
  records.push_back(kernel("prefetch_kernel", kSide, at(0, 2), at(0, 12)));
  const ActivityVerdict v = judge_activity(records, kTimed);
  ASSERT_EQ(v.outside.size(), 1u);
  EXPECT_EQ(v.outside[0].name, "prefetch_kernel");
  EXPECT_EQ(v.outside[0].where, "before the start event of call 0");
  EXPECT_DOUBLE_EQ(v.outside[0].ms_outside, 0.008);
}

TEST(GpuActivity, WorkBetweenAndAroundTheCallsIsRefused) {
  std::vector<GpuActivity> records = honest(3);
  records.push_back(record(GpuActivity::Kind::memset, "memset", kSide, at(1, 70), at(1, 90)));
  records.push_back(kernel("warmup_kernel", kSide, 100, 600));
  records.push_back(kernel("cleanup_kernel", 21, at(4, 0), at(4, 3)));
  const ActivityVerdict v = judge_activity(records, kTimed);
  ASSERT_EQ(v.outside.size(), 3u);
  // In time order.
  EXPECT_EQ(v.outside[0].name, "warmup_kernel");
  EXPECT_EQ(v.outside[0].where, "before the first call");
  EXPECT_DOUBLE_EQ(v.outside[0].ms_outside, 0.0005);
  EXPECT_EQ(v.outside[1].kind, GpuActivity::Kind::memset);
  EXPECT_EQ(v.outside[1].where, "between calls 1 and 2");
  EXPECT_DOUBLE_EQ(v.outside[1].ms_outside, 0.020);
  EXPECT_EQ(v.outside[2].name, "cleanup_kernel");
  EXPECT_EQ(v.outside[2].stream, 21u);
  EXPECT_EQ(v.outside[2].where, "after the last call");
  EXPECT_DOUBLE_EQ(v.outside_ms, 0.0005 + 0.020 + 0.003);
  EXPECT_EQ(v.streams, (std::vector<uint32_t>{kTimed, kSide, 21}));
}

TEST(GpuActivity, OnlyThePartOutsideAStraddledEdgeCounts) {
  std::vector<GpuActivity> records = honest(3);
  // From inside call 0 to inside call 1: the gap between them, 50 us, is outside.
  records.push_back(kernel("long_kernel", kSide, at(0, 50), at(1, 20)));
  // Across the whole of call 2's window: 5 us before its start event and 5 us after its stop.
  records.push_back(kernel("wide_kernel", 30, at(2, 5), at(2, 65)));
  const ActivityVerdict v = judge_activity(records, kTimed);
  ASSERT_EQ(v.outside.size(), 3u);
  EXPECT_EQ(v.outside[0].name, "long_kernel");
  EXPECT_EQ(v.outside[0].where, "after the stop event of call 0");
  EXPECT_DOUBLE_EQ(v.outside[0].ms_outside, 0.050);
  EXPECT_EQ(v.outside[1].name, "wide_kernel");
  EXPECT_EQ(v.outside[1].where, "before the start event of call 2");
  EXPECT_DOUBLE_EQ(v.outside[1].ms_outside, 0.005);
  EXPECT_EQ(v.outside[2].name, "wide_kernel");
  EXPECT_EQ(v.outside[2].where, "after the stop event of call 2");
  EXPECT_DOUBLE_EQ(v.outside[2].ms_outside, 0.005);
  EXPECT_DOUBLE_EQ(v.outside_ms, 0.060);
  EXPECT_DOUBLE_EQ(v.backend_gpu_ms, 3 * 0.060 + 0.070 + 0.060);
  EXPECT_DOUBLE_EQ(v.outside_share(), 0.060 / 0.310);
}

TEST(GpuActivity, AZeroLengthRecordOutsideIsStillOutside) {
  std::vector<GpuActivity> records = honest(1);
  records.push_back(kernel("empty_kernel", kSide, at(0, 80), at(0, 80)));
  const ActivityVerdict v = judge_activity(records, kTimed);
  ASSERT_EQ(v.outside.size(), 1u);
  EXPECT_EQ(v.outside[0].where, "after the last call");
  EXPECT_EQ(v.outside[0].ms_outside, 0.0);
}

TEST(GpuActivity, MissingHarnessOperationsAreTheHarnessesError) {
  auto without = [](const std::string& name, uint64_t call) {
    std::vector<GpuActivity> records = honest(3);
    records.erase(std::remove_if(records.begin(), records.end(),
                                 [&](const GpuActivity& r) {
                                   return r.name == name && r.start_ns / 100000 == call;
                                 }),
                  records.end());
    return records;
  };
  EXPECT_EQ(thrown<std::runtime_error>([&] { judge_activity(without("memcpy DtoD", 1), kTimed); }),
            "call 1 has no harness operation after its stop event on the timed stream (stream 7) "
            "among the activity records");
  std::vector<GpuActivity> no_before = without("stream_gate_kernel", 2);
  for (const char* name : {"generate_x", "memset", "l2_flush"})
    no_before.erase(std::remove_if(no_before.begin(), no_before.end(),
                                   [&](const GpuActivity& r) {
                                     return r.name == name && r.start_ns / 100000 == 2;
                                   }),
                    no_before.end());
  EXPECT_EQ(thrown<std::runtime_error>([&] { judge_activity(no_before, kTimed); }),
            "call 2 has no harness operation before its start event on the timed stream (stream 7) "
            "among the activity records");
  // The ops exist, but on another stream than the one timed.
  EXPECT_NE(thrown<std::runtime_error>([&] { judge_activity(honest(2), kSide); }), "");
  // No harness operations at all.
  EXPECT_EQ(thrown<std::runtime_error>(
                [&] { judge_activity({kernel("gemm_kernel", kTimed, 0, 10)}, kTimed); }),
            "no call's harness operations on the timed stream (stream 7) among the activity "
            "records");
  // A tag that no harness_tag gives.
  std::vector<GpuActivity> odd = honest(1);
  odd.push_back(record(GpuActivity::Kind::kernel, "k", kTimed, 0, 1, 3));
  EXPECT_NE(thrown<std::runtime_error>([&] { judge_activity(odd, kTimed); }), "");
  // Two calls whose windows overlap.
  std::vector<GpuActivity> overlapping = honest(2);
  for (GpuActivity& r : overlapping)
    if (r.tag == harness_tag(1, TagRole::before)) r.tag = harness_tag(0, TagRole::after);
  for (GpuActivity& r : overlapping)
    if (r.tag == harness_tag(1, TagRole::after)) r.tag = harness_tag(1, TagRole::before);
  overlapping.push_back(record(GpuActivity::Kind::memcpy, "memcpy DtoD", kTimed, at(0, 30),
                               at(0, 31), harness_tag(1, TagRole::after)));
  EXPECT_NE(thrown<std::runtime_error>([&] { judge_activity(overlapping, kTimed); }), "");
}

TEST(GpuActivity, DescribeNamesTheFirstPiecesAndCountsTheRest) {
  std::vector<GpuActivity> records = harness(5);
  for (uint64_t c = 0; c < 5; ++c) {
    records.push_back(kernel("gemm_kernel", kTimed, at(c, 10), at(c, 50)));
    records.push_back(kernel("epilogue_kernel", kSide, at(c, 50), at(c, 70)));
  }
  const ActivityVerdict v = judge_activity(records, kTimed);
  ASSERT_EQ(v.outside.size(), 5u);
  EXPECT_DOUBLE_EQ(v.outside_ms, 0.050);
  EXPECT_DOUBLE_EQ(v.outside_share(), 0.050 / 0.300);
  EXPECT_EQ(describe_outside(v),
            "kernel 'epilogue_kernel' on stream 14 ran outside the timed region (after the stop "
            "event of call 0), 0.010 ms, 3.3% of the backend's GPU time; "
            "kernel 'epilogue_kernel' on stream 14 ran outside the timed region (after the stop "
            "event of call 1), 0.010 ms, 3.3% of the backend's GPU time; "
            "kernel 'epilogue_kernel' on stream 14 ran outside the timed region (after the stop "
            "event of call 2), 0.010 ms, 3.3% of the backend's GPU time; "
            "2 more pieces outside; 0.050 ms outside in all, 16.7% of the backend's GPU time");
}

TEST(GpuActivity, DescribeNamesCopiesAndShortensLongKernelNames) {
  std::vector<GpuActivity> records = honest(1);
  records.push_back(
      record(GpuActivity::Kind::memcpy, "memcpy DtoH", kSide, at(0, 70), at(0, 70) + 400));
  const std::string long_name = "void cutlass::Kernel<" + std::string(200, 'T') + ">(Params)";
  records.push_back(kernel(long_name, kSide, at(0, 80), at(0, 81)));
  const ActivityVerdict v = judge_activity(records, kTimed);
  ASSERT_EQ(v.outside.size(), 2u);
  const std::string text = describe_outside(v);
  EXPECT_EQ(text.rfind("memcpy DtoH on stream 14 ran outside the timed region (after the last "
                       "call), 400 ns, 0.65% of the backend's GPU time; kernel 'void cutlass::",
                       0),
            0u)
      << text;
  EXPECT_EQ(text.find(long_name), std::string::npos) << text;
  EXPECT_NE(text.find("...' on stream 14"), std::string::npos) << text;
  EXPECT_NE(text.find("; 1400 ns outside in all, 2.3% of the backend's GPU time"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace mish
