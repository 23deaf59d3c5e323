// The stopping rule on synthetic series: fixed counts, convergence on stable and noisy series,
// --timeout and --min-time, and the six-sample floor for a 95% interval.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "base/progress/progress.h"
#include "core/timing/stopping.h"

namespace mish {
namespace {

struct Outcome {
  StopReason reason;
  int count;
};

// Feeds samples from `next` to the rule; simulated wall time is the sum of the samples plus
// `overhead_s` per sample.
template <typename Next>
Outcome simulate(const StoppingRule& rule, Next next, double overhead_s = 0.0) {
  std::vector<double> samples;
  double elapsed = 0.0;
  while (true) {
    samples.push_back(next());
    elapsed += samples.back() * 1e-3 + overhead_s;
    if (const auto reason = should_stop(rule, samples, elapsed))
      return {*reason, static_cast<int>(samples.size())};
  }
}

auto lognormal_series(double sigma, uint64_t seed) {
  return [rng = std::mt19937_64(seed), noise = std::normal_distribution<double>(0.0, sigma)]() mutable {
    return 2.0 * std::exp(noise(rng));
  };
}

TEST(Stopping, FixedCountStopsExactlyAtIters) {
  StoppingRule rule;
  rule.iters = 37;
  const Outcome outcome = simulate(rule, [] { return 1.0; });
  EXPECT_EQ(outcome.reason, StopReason::iters);
  EXPECT_EQ(outcome.count, 37);
}

TEST(Stopping, StableSeriesConvergesAtTheMinimumCount) {
  StoppingRule rule;
  rule.iters = 20;
  rule.max_noise = 0.01;
  const Outcome outcome = simulate(rule, lognormal_series(0.001, 1));
  EXPECT_EQ(outcome.reason, StopReason::converged);
  EXPECT_EQ(outcome.count, 20);
}

TEST(Stopping, NoisySeriesTerminatesAndTighterTargetsNeedMoreSamples) {
  StoppingRule rule;
  rule.iters = 10;
  rule.max_noise = 0.05;
  const Outcome loose = simulate(rule, lognormal_series(0.3, 2));
  rule.max_noise = 0.01;
  const Outcome tight = simulate(rule, lognormal_series(0.3, 2));
  EXPECT_EQ(loose.reason, StopReason::converged);
  EXPECT_EQ(tight.reason, StopReason::converged);
  EXPECT_GT(loose.count, 10);
  // Width ~ 1/sqrt(n): five times tighter needs roughly 25 times the samples.
  EXPECT_GT(tight.count, 10 * loose.count);
  EXPECT_LT(tight.count, kMaxAdaptiveSamples);
}

TEST(Stopping, TimeoutWinsOverAnUnreachableNoiseTarget) {
  StoppingRule rule;
  rule.iters = 1000000;  // never reached
  rule.max_noise = 1e-6;
  rule.timeout_s = 0.5;
  const Outcome outcome = simulate(rule, lognormal_series(0.3, 3));  // ~2 ms samples
  EXPECT_EQ(outcome.reason, StopReason::timeout);
  EXPECT_NEAR(outcome.count, 250, 60);
}

TEST(Stopping, TimeoutCountsWallTimeNotJustSamples) {
  StoppingRule rule;
  rule.iters = 1000000;
  rule.timeout_s = 1.0;
  // 1 ms samples, 9 ms of untimed work each (flush, sync): 100 samples in one second.
  const Outcome outcome = simulate(rule, [] { return 1.0; }, 0.009);
  EXPECT_EQ(outcome.reason, StopReason::timeout);
  EXPECT_EQ(outcome.count, 100);
}

TEST(Stopping, MinTimeCountsTheTimedSamples) {
  StoppingRule rule;
  rule.iters = 5;
  rule.min_time_s = 0.25;
  const Outcome outcome = simulate(rule, [] { return 5.0; });  // 5 ms each
  EXPECT_EQ(outcome.reason, StopReason::converged);
  EXPECT_EQ(outcome.count, 50);
}

TEST(Stopping, NoiseTargetNeedsSixSamples) {
  StoppingRule rule;
  rule.iters = 1;
  rule.max_noise = 0.5;
  const Outcome outcome = simulate(rule, [] { return 1.0; });
  EXPECT_EQ(outcome.count, 6);
}

TEST(Stopping, ProgressFractionStaysInRangeAndReachesOne) {
  StoppingRule rule;
  rule.iters = 10;
  rule.min_time_s = 0.1;
  std::vector<double> samples;
  double last = 0.0;
  for (int i = 0; i < 20; ++i) {
    samples.push_back(5.0);
    const double fraction = progress_fraction(rule, samples, 0.0);
    EXPECT_GE(fraction, last);
    EXPECT_LE(fraction, 1.0);
    last = fraction;
  }
  EXPECT_DOUBLE_EQ(last, 1.0);
}

TEST(Progress, RenderShowsBarPercentAndEta) {
  EXPECT_EQ(ProgressBar::render("ref", 0.5, 10.0, 10), "ref [#####.....]  50% ETA 10s");
  EXPECT_EQ(ProgressBar::render("ref", 0.0, 1.0, 4), "ref [....]   0% ETA ?");
  EXPECT_EQ(ProgressBar::render("ref", 0.25, 30.0, 4), "ref [#...]  25% ETA 1m30s");
}

}  // namespace
}  // namespace mish
