// The harness's calls on the host, as host backends get them: every call's x is fresh and drawn
// from the nonce (the first the problem's own where the plan says so), y is poisoned before it,
// and the output store keeps every call while it has room, then a uniform sample; the checker
// judges a kept output against a float64 reference of that call's own x. Also the physical floor.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "core/problem/generator.h"
#include "core/reference/reference.h"
#include "core/verify/plausibility.h"
#include "exec/executor/buffers.h"
#include "exec/executor/call_hooks.h"
#include "exec/worker/protocol.h"
#include "run/call_checker.h"
#include "settings/run_config.h"

namespace mish {
namespace {

Problem small_problem() {
  Problem p;
  p.m = 5, p.n = 7, p.k = 9;
  return p;
}

struct HostCalls {
  explicit HostCalls(uint32_t slots) : problem(small_problem()) {
    data.problem = problem;
    data.inputs = generate_inputs(problem);
    data.reference = compute_reference(problem, data.inputs);
    buffers = make_host_buffers(data, slots);
  }
  Problem problem;
  ProblemData data;
  std::unique_ptr<ProblemBuffers> buffers;
};

CallPlan plan_with(bool main_x_first, uint64_t first_call = 0) {
  CallPlan plan;
  plan.nonce = 0x1234abcdULL;
  plan.first_call = first_call;
  plan.main_x_first = main_x_first;
  return plan;
}

TEST(PreparedCalls, EveryCallGetsItsOwnXAndAPoisonedY) {
  HostCalls host(8);
  const Tensors t = host.buffers->tensors();
  const CallPlan plan = plan_with(true);
  PreparedCalls calls(host.problem, t, host.buffers->store(), plan, nullptr);
  std::set<std::vector<float>> seen;
  for (uint64_t i = 0; i < 4; ++i) {
    calls.before(i);
    for (uint64_t e = 0; e < host.problem.y_count(); ++e) ASSERT_TRUE(std::isnan(t.y[e]));
    std::vector<float> x(t.x, t.x + host.problem.x_count());
    Problem drawn = host.problem;
    drawn.seed = seed_of_call(host.problem, plan, i);
    std::vector<float> expected(host.problem.x_count());
    generate_tensor(drawn, Tensor::x, expected.data(), expected.size());
    EXPECT_EQ(x, expected) << "call " << i;
    if (i == 0) EXPECT_EQ(x, host.data.inputs.x);
    seen.insert(x);
    calls.after(i);
  }
  EXPECT_EQ(seen.size(), 4u);
}

TEST(PreparedCalls, CallSeedsDependOnTheNonceAndTheCall) {
  EXPECT_NE(call_seed(1, 0), call_seed(1, 1));
  EXPECT_NE(call_seed(1, 0), call_seed(2, 0));
  EXPECT_EQ(call_seed(7, 3), call_seed(7, 3));
}

TEST(PreparedCalls, KeepsEveryCallWhileThereIsRoom) {
  HostCalls host(6);
  PreparedCalls calls(host.problem, host.buffers->tensors(), host.buffers->store(),
                      plan_with(true, 10), nullptr);
  for (uint64_t i = 0; i < 6; ++i) {
    calls.before(i);
    calls.after(i);
  }
  const std::vector<KeptOutput> kept = calls.kept();
  ASSERT_EQ(kept.size(), 6u);
  for (uint32_t i = 0; i < 6; ++i) {
    EXPECT_EQ(kept[i].call, 10 + i);
    EXPECT_EQ(kept[i].slot, i);
  }
}

// With 3 slots (the main call's and two more) and 41 calls, the two sampled slots hold a
// uniform sample of calls 1..40: over many nonces every call is kept about as often.
TEST(PreparedCalls, ReservoirIsAUniformSample) {
  HostCalls host(3);
  std::map<uint64_t, int> times_kept;
  constexpr int kRuns = 2000;
  for (int run = 0; run < kRuns; ++run) {
    CallPlan plan = plan_with(true);
    plan.nonce = 1000 + run;
    PreparedCalls calls(host.problem, host.buffers->tensors(), host.buffers->store(), plan,
                        nullptr);
    for (uint64_t i = 0; i < 41; ++i) calls.after(i);
    const std::vector<KeptOutput> kept = calls.kept();
    ASSERT_EQ(kept.size(), 3u);
    EXPECT_EQ(kept[0].call, 0u);
    for (size_t k = 1; k < kept.size(); ++k) ++times_kept[kept[k].call];
  }
  ASSERT_EQ(times_kept.count(0), 0u);
  const double expected = 2.0 * kRuns / 40.0;  // 100
  for (uint64_t call = 1; call <= 40; ++call)
    EXPECT_NEAR(times_kept[call], expected, 0.35 * expected) << "call " << call;
}

// Each kept slot holds the output of the call it names.
TEST(PreparedCalls, SlotsHoldTheirCallsOutputs) {
  HostCalls host(3);
  const Tensors t = host.buffers->tensors();
  PreparedCalls calls(host.problem, t, host.buffers->store(), plan_with(false), nullptr);
  for (uint64_t i = 0; i < 20; ++i) {
    calls.before(i);
    std::fill(t.y, t.y + host.problem.y_count(), float(i));
    calls.after(i);
  }
  std::vector<float> y;
  for (const KeptOutput& kept : calls.kept()) {
    host.buffers->read_slot(kept.slot, y);
    EXPECT_EQ(y.front(), float(kept.call)) << "slot " << kept.slot;
  }
}

void honest_layer(const Problem& p, const Tensors& t) {
  for (int64_t r = 0; r < p.m; ++r)
    for (int64_t c = 0; c < p.n; ++c) {
      double sum = t.b[c];
      for (int64_t i = 0; i < p.k; ++i) sum += double(t.x[r * p.k + i]) * t.w[c * p.k + i];
      t.y[r * p.n + c] = float(mish_double(mish_double(sum)));
    }
}

TEST(CallChecker, ChecksEachCallAgainstItsOwnX) {
  HostCalls host(4);
  const Tensors t = host.buffers->tensors();
  const CallPlan plan = plan_with(true);
  PreparedCalls calls(host.problem, t, host.buffers->store(), plan, nullptr);
  std::vector<float> stale;
  for (uint64_t i = 0; i < 4; ++i) {
    calls.before(i);
    if (i < 2) {
      honest_layer(host.problem, t);
      stale.assign(t.y, t.y + host.problem.y_count());
    } else {
      std::copy(stale.begin(), stale.end(), t.y);  // the answer of call 1, replayed
    }
    calls.after(i);
  }
  CallChecker checker(host.data, nullptr);
  std::vector<float> main_y;
  for (const KeptOutput& kept : calls.kept()) {
    const Verification v =
        checker.check(*host.buffers, kept.slot, seed_of_call(host.problem, plan, kept.call),
                      kept.call == 0, Tolerance{}, main_y);
    EXPECT_EQ(v.passed(), kept.call < 2) << "call " << kept.call;
  }
  EXPECT_EQ(main_y.size(), host.problem.y_count());
  EXPECT_NE(checker.reference_note().find("CPU float64"), std::string::npos);
}

TEST(PhysicalFloor, TheLargerOfBytesAndTheHighestPeak) {
  Problem p;  // 1024 x 8192 x 8192
  const PhysicalFloor floor = physical_floor(p, "NVIDIA H200", 4000.0, 60u << 20, false);
  ASSERT_TRUE(floor.compute_ms);
  EXPECT_NEAR(*floor.compute_ms, p.flops() / 1979e12 * 1e3, 1e-9);
  const double bytes = 4.0 * (p.x_count() + p.y_count() + p.n) + double(p.w_count());
  EXPECT_NEAR(floor.memory_ms, bytes / 4000e9 * 1e3, 1e-9);
  EXPECT_DOUBLE_EQ(floor.floor_ms(), std::max(floor.memory_ms, *floor.compute_ms));
  EXPECT_NE(floor.describe().find("compute"), std::string::npos);
  // A hot L2 takes its size off the bytes; an unknown device has no compute term.
  EXPECT_LT(physical_floor(p, "NVIDIA H200", 4000.0, 60u << 20, true).memory_ms, floor.memory_ms);
  Problem small;
  small.m = 1;
  const PhysicalFloor unknown = physical_floor(small, "a GPU not in the table", 4000.0, 0, false);
  EXPECT_FALSE(unknown.compute_ms);
  EXPECT_DOUBLE_EQ(unknown.floor_ms(), unknown.memory_ms);
  EXPECT_NE(unknown.describe().find("memory"), std::string::npos);
}

// What the settings table sets for the calls reaches a worker whole: the executor settings it
// opens its backend with, and the sample settings of every series.
TEST(WorkerProtocol, EveryExecutorAndSampleSettingSurvivesTheWorkerBoundary) {
  RunConfig config;
  apply_config_json({{"l2", "hot"}, {"include_prepack", true}}, "test", config);
  // The binding names every field: a field added to ExecutorSettings fails to compile here until
  // the protocol and this test carry it.
  const auto [l2, include_prepack] = from_message<ExecutorSettings>(to_message(config.execution));
  EXPECT_EQ(l2, L2Mode::hot);
  EXPECT_TRUE(include_prepack);
  const ExecutorSettings defaults = from_message<ExecutorSettings>(to_message(ExecutorSettings{}));
  EXPECT_EQ(defaults.l2, L2Mode::flush);
  EXPECT_FALSE(defaults.include_prepack);

  SampleSettings s;
  s.warmup = 3;
  s.iters = 17;
  s.min_time_s = 0.25;
  s.max_noise = 0.01;
  s.timeout_s = 9.0;
  const SampleSettings t = from_message<SampleSettings>(to_message(s));
  EXPECT_EQ(t.warmup, 3);
  EXPECT_EQ(t.iters, 17);
  EXPECT_EQ(t.min_time_s, 0.25);
  EXPECT_EQ(t.max_noise, 0.01);
  EXPECT_EQ(t.timeout_s, 9.0);
  const SampleSettings unset = from_message<SampleSettings>(to_message(SampleSettings{}));
  EXPECT_FALSE(unset.min_time_s || unset.max_noise || unset.timeout_s);
}

TEST(WorkerProtocol, CallPlansAndSamplingsSurviveTheWorkerBoundary) {
  CallPlan plan;
  plan.nonce = 0xfedcba9876543210ULL;
  plan.first_call = 77;
  plan.main_x_first = true;
  plan.record_activity = true;
  const CallPlan back = from_message<CallPlan>(to_message(plan));
  EXPECT_EQ(back.nonce, plan.nonce);
  EXPECT_EQ(back.first_call, plan.first_call);
  EXPECT_EQ(back.main_x_first, plan.main_x_first);
  EXPECT_EQ(back.record_activity, plan.record_activity);

  Sampling s;
  s.samples_ms = {1.5, 2.5};
  s.calls = 12;
  s.kept = {{77, 0}, {80, 1}};
  s.activity = {{GpuActivity::Kind::memset, "memset", 3, 10, 20, 5},
                {GpuActivity::Kind::kernel, "void k<float>(float*)", 4, 30, 40, 0}};
  s.timed_stream = 3;
  s.activity_note = "why not";
  const Sampling t = from_message<Sampling>(to_message(s));
  EXPECT_EQ(t.calls, 12u);
  ASSERT_EQ(t.kept.size(), 2u);
  EXPECT_EQ(t.kept[1].call, 80u);
  EXPECT_EQ(t.kept[1].slot, 1u);
  ASSERT_EQ(t.activity.size(), 2u);
  EXPECT_EQ(t.activity[1].kind, GpuActivity::Kind::kernel);
  EXPECT_EQ(t.activity[1].name, "void k<float>(float*)");
  EXPECT_EQ(t.activity[0].tag, 5u);
  EXPECT_EQ(t.activity[1].end_ns, 40u);
  EXPECT_EQ(t.timed_stream, 3u);
  EXPECT_EQ(t.activity_note, "why not");
}

}  // namespace
}  // namespace mish
