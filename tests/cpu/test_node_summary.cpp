// The node summary on synthetic figures: the node median is the median of the device medians; a
// device whose whole confidence interval lies beyond the 5% band is flagged (a slow card among
// eight, a throttled one), while noise and small differences are not; backends on one device get
// no row; and the flags of a real series come from its samples (summarize, clocks).
#include <gtest/gtest.h>

#include <random>

#include "report_fixture.h"
#include "reports/report/node_summary.h"

namespace mish {
namespace {

// A device's figures as a run makes them: the samples' median and its 95% interval.
DeviceTiming timing_of(size_t device, const std::vector<double>& samples,
                       const std::string& backend = "fused", size_t problem = 0) {
  const TimingStats stats = summarize(samples);
  DeviceTiming t;
  t.backend = backend;
  t.problem = problem;
  t.device = device;
  t.median_ms = stats.median;
  t.ci_low_ms = stats.ci_low;
  t.ci_high_ms = stats.ci_high;
  t.samples = stats.count;
  return t;
}

// Samples spread by `relative_noise` (normal) around `median_ms`.
std::vector<double> spread(double median_ms, double relative_noise, uint64_t seed,
                           int count = 100) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, relative_noise);
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) samples.push_back(median_ms * (1.0 + noise(rng)));
  return samples;
}

TEST(NodeSummary, FlagsTheSlowCardOfEight) {
  std::vector<DeviceTiming> timings;
  for (size_t d = 0; d < 8; ++d)
    timings.push_back(timing_of(d, noisy_samples(d == 5 ? 2.7 * 1.09 : 2.7, 10 + d)));
  timings[5].throttled_samples = 100;
  timings[5].throttle_reasons = {"sw_power_cap"};
  const std::vector<NodeSummaryRow> rows = summarize_node(timings);
  ASSERT_EQ(rows.size(), 1u);
  const NodeSummaryRow& row = rows[0];
  EXPECT_EQ(row.backend, "fused");
  EXPECT_NEAR(row.node_median_ms, 2.7, 2.7 * 0.01);  // seven healthy cards hold the median
  EXPECT_TRUE(row.flagged());
  ASSERT_EQ(row.devices.size(), 8u);
  for (size_t d = 0; d < 8; ++d) {
    const DeviceStanding& s = row.devices[d];
    EXPECT_EQ(s.timing.device, d);
    EXPECT_NEAR(s.ratio, s.timing.median_ms / row.node_median_ms, 1e-12);
    EXPECT_EQ(s.deviation, d == 5 ? Deviation::slow : Deviation::none) << "device " << d;
  }
  EXPECT_NEAR(row.devices[5].ratio, 1.09, 0.015);
  EXPECT_EQ(row.devices[5].timing.throttle_reasons, std::vector<std::string>{"sw_power_cap"});
  EXPECT_EQ(to_string(row.devices[5].deviation), "slow");
}

TEST(NodeSummary, NoiseIsNotFlagged) {
  // Four cards of one speed, one of them very noisy (its median 6% off by chance, its interval
  // wide), and one 3% slower with a tight interval: inside the band, so no flag either.
  std::vector<DeviceTiming> timings;
  timings.push_back(timing_of(0, spread(2.7, 0.003, 1)));
  timings.push_back(timing_of(1, spread(2.7, 0.003, 2)));
  timings.push_back(timing_of(2, spread(2.7 * 1.03, 0.003, 3)));
  DeviceTiming noisy = timing_of(3, spread(2.7, 0.3, 4, 20));
  noisy.median_ms = 2.7 * 1.06;
  timings.push_back(noisy);
  ASSERT_LT(noisy.ci_low_ms, 2.7 * 1.05);  // the premise: its own interval reaches into the band
  const std::vector<NodeSummaryRow> rows = summarize_node(timings);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].flagged());
  for (const DeviceStanding& s : rows[0].devices) EXPECT_EQ(s.deviation, Deviation::none);
}

TEST(NodeSummary, AFastOutlierIsFlaggedToo) {
  std::vector<DeviceTiming> timings;
  for (size_t d = 0; d < 4; ++d)
    timings.push_back(timing_of(d, spread(d == 2 ? 2.4 : 2.7, 0.002, d)));
  const std::vector<NodeSummaryRow> rows = summarize_node(timings);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].devices[2].deviation, Deviation::fast);
  EXPECT_EQ(rows[0].devices[0].deviation, Deviation::none);
}

TEST(NodeSummary, OneDeviceGivesNoRowAndRowsFollowProblemsThenBackends) {
  std::vector<DeviceTiming> timings = {
      timing_of(0, spread(1.0, 0.01, 1), "wgmma", 1),
      timing_of(1, spread(1.0, 0.01, 2), "wgmma", 1),
      timing_of(0, spread(2.0, 0.01, 3), "fused", 0),
      timing_of(1, spread(2.0, 0.01, 4), "fused", 0),
      timing_of(0, spread(3.0, 0.01, 5), "naive", 0),  // on one device only
      timing_of(1, spread(0.6, 0.01, 6), "fp16x3", 0),
      timing_of(0, spread(0.6, 0.01, 7), "fp16x3", 0)};
  const std::vector<NodeSummaryRow> rows = summarize_node(timings);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].backend, "fused");
  EXPECT_EQ(rows[1].backend, "fp16x3");
  EXPECT_EQ(rows[1].devices[0].timing.device, 0u);  // in device order, whatever the input order
  EXPECT_EQ(rows[2].backend, "wgmma");
  EXPECT_EQ(rows[2].problem, 1u);
  EXPECT_TRUE(summarize_node({timing_of(0, spread(1.0, 0.01, 1))}).empty());
}

TEST(NodeSummary, TwoDevicesApartAreBothFlagged) {
  // With two devices the node median lies between them: a 12% gap puts each outside the band,
  // and the summary cannot say which card is the odd one (documented).
  const std::vector<NodeSummaryRow> rows = summarize_node(
      {timing_of(0, spread(2.7, 0.002, 1)), timing_of(1, spread(2.7 * 1.12, 0.002, 2))});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].devices[0].deviation, Deviation::fast);
  EXPECT_EQ(rows[0].devices[1].deviation, Deviation::slow);
  EXPECT_NEAR(rows[0].node_median_ms, 2.7 * 1.06, 0.01);
}

TEST(NodeSummary, ReadsARunsDeviceResultsWithTheirThrottling) {
  RunOutcome outcome;
  outcome.devices.resize(2);
  ProblemRun run;
  for (size_t d = 0; d < 2; ++d) {
    BackendResult r;
    r.backend = "fused";
    r.samples_ms = spread(2.7, 0.002, d);
    r.stats = summarize(r.samples_ms);
    r.device = d;
    ClockSummary clocks;
    clocks.readings = 100;
    if (d == 1) {
      clocks.throttled_samples = {0, 1, 2};
      clocks.reasons_seen = 0x4;  // sw_power_cap
    }
    r.clocks = clocks;
    run.results.push_back(r);
  }
  BackendResult host;  // a host backend is not a device's
  host.backend = "fused";
  host.samples_ms = {9.0, 9.0, 9.0};
  host.stats = summarize(host.samples_ms);
  run.results.push_back(host);
  outcome.runs.push_back(run);
  const std::vector<DeviceTiming> timings = device_timings(outcome);
  ASSERT_EQ(timings.size(), 2u);
  EXPECT_EQ(timings[1].throttled_samples, 3);
  EXPECT_EQ(timings[1].throttle_reasons, std::vector<std::string>{"sw_power_cap"});
  EXPECT_EQ(timings[0].throttled_samples, 0);
  EXPECT_EQ(timings[0].samples, 100);
}

}  // namespace
}  // namespace mish
