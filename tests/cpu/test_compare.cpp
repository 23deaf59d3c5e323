// compare: the statistics against known values, and the verdicts on synthetic reports with
// realistic noise (a tight core plus occasional slow outliers, as GPU timings look).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "base/common/errors.h"
#include "core/timing/statistics.h"
#include "report_fixture.h"
#include "reports/compare/compare.h"
#include "reports/report/schema.h"

namespace mish {
namespace {

using nlohmann::json;

CompareOutcome compare(const json& base, const json& fresh, const CompareSettings& settings) {
  return compare_reports(summarize_report(base, "base"), summarize_report(fresh, "new"), settings);
}

Verdict verdict_for(double shift, uint64_t seed) {
  const json base = make_report(noisy_samples(2.7, seed));
  const json fresh = make_report(noisy_samples(2.7 * (1.0 + shift), seed + 1000));
  EXPECT_TRUE(check_report(base).ok());
  const CompareOutcome outcome = compare(base, fresh, CompareSettings{});
  EXPECT_EQ(outcome.rows.size(), 1u);
  return outcome.rows.at(0).verdict;
}

TEST(Significance, MannWhitneyMatchesTheNormalApproximation) {
  // U = 0 for fully separated sets of 5: z = (12.5 - 0.5) / sqrt(25 * 11 / 12), p = erfc(z/sqrt2).
  EXPECT_NEAR(mann_whitney_p({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 0.012186, 1e-5);
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 1, 1}, {1, 1, 1}), 1.0);
  EXPECT_GT(mann_whitney_p({1, 3, 5, 7}, {2, 4, 6, 8}), 0.5);
}

TEST(Significance, BootstrapIntervalBracketsTheRatio) {
  const RatioInterval r = bootstrap_median_ratio(noisy_samples(2.0, 1), noisy_samples(2.2, 2));
  EXPECT_NEAR(r.ratio, 1.1, 0.01);
  EXPECT_LT(r.low, r.ratio);
  EXPECT_GT(r.high, r.ratio);
  EXPECT_LT(r.high - r.low, 0.02);
}

// The rank-sum statistic from its definition, pair by pair (ties count one half): O(n1 n2),
// for checking the merged-ranks computation on small sets with many ties.
double mann_whitney_p_by_pairs(const std::vector<double>& a, const std::vector<double>& b) {
  double u = 0.0;
  for (double x : a)
    for (double y : b) u += x > y ? 1.0 : x == y ? 0.5 : 0.0;
  std::vector<double> all = a;
  all.insert(all.end(), b.begin(), b.end());
  std::sort(all.begin(), all.end());
  double tie_term = 0.0;
  for (size_t i = 0, j; i < all.size(); i = j) {
    for (j = i; j < all.size() && all[j] == all[i];) ++j;
    const double t = double(j - i);
    tie_term += t * t * t - t;
  }
  const double n1 = double(a.size()), n2 = double(b.size()), n = n1 + n2;
  const double variance = n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
  if (variance <= 0.0) return 1.0;
  const double z = (std::fabs(u - n1 * n2 / 2.0) - 0.5) / std::sqrt(variance);
  return std::min(1.0, std::erfc(std::max(z, 0.0) / std::sqrt(2.0)));
}

TEST(Significance, MannWhitneyMatchesItsDefinitionWithTies) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int> value(1, 6);  // few distinct values: many ties
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> a(17 + trial), b(23);
    for (double& v : a) v = value(rng);
    for (double& v : b) v = value(rng) + (trial % 3);
    EXPECT_NEAR(mann_whitney_p(a, b), mann_whitney_p_by_pairs(a, b), 1e-12) << trial;
  }
}

TEST(Significance, FastMedianIsTheMedian) {
  for (int count : {1, 2, 3, 10, 101}) {
    const std::vector<double> samples = noisy_samples(2.7, uint64_t(count), count);
    EXPECT_EQ(fast_median(samples), median(samples)) << count;
  }
}

TEST(Significance, LargeSetsAreSubsampledReproduciblyAndConservatively) {
  const std::vector<double> a = noisy_samples(2.0, 1, 200'000), b = noisy_samples(2.1, 2, 200'000);
  const RatioInterval r = bootstrap_median_ratio(a, b);
  EXPECT_EQ(r.ratio, median(b) / median(a));  // from every sample
  EXPECT_LT(r.low, r.ratio);
  EXPECT_GT(r.high, r.ratio);
  const RatioInterval again = bootstrap_median_ratio(a, b);
  EXPECT_EQ(again.low, r.low);
  EXPECT_EQ(again.high, r.high);
  // Wider than the whole sets would give: the interval of kBootstrapSubsample samples.
  const std::vector<double> a_few(a.begin(), a.begin() + kBootstrapSubsample);
  const std::vector<double> b_few(b.begin(), b.begin() + kBootstrapSubsample);
  const RatioInterval few = bootstrap_median_ratio(a_few, b_few);
  EXPECT_NEAR(r.high - r.low, few.high - few.low, 0.5 * (few.high - few.low));
}

TEST(Compare, IdenticalDistributionsAreSameNeverSlower) {
  for (uint64_t seed = 1; seed <= 20; ++seed) EXPECT_EQ(verdict_for(0.0, seed), Verdict::same) << seed;
}

TEST(Compare, FivePercentSlowdownIsDetected) {
  for (uint64_t seed = 1; seed <= 5; ++seed) EXPECT_EQ(verdict_for(0.05, seed), Verdict::slower) << seed;
}

TEST(Compare, FivePercentSpeedupIsFaster) {
  for (uint64_t seed = 1; seed <= 5; ++seed) EXPECT_EQ(verdict_for(-0.05, seed), Verdict::faster) << seed;
}

TEST(Compare, ShiftBelowThresholdIsSame) {
  for (uint64_t seed = 1; seed <= 5; ++seed) EXPECT_EQ(verdict_for(0.01, seed), Verdict::same) << seed;
}

TEST(Compare, VerifiedThenFailingIsACorrectnessRegression) {
  const json base = make_report(noisy_samples(2.7, 1));
  const json fresh = make_report(noisy_samples(2.7, 2), "mismatch");
  const CompareOutcome outcome = compare(base, fresh, CompareSettings{});
  EXPECT_EQ(outcome.rows.at(0).verdict, Verdict::broken);
  EXPECT_EQ(outcome.failures(), 1);
}

TEST(Compare, DifferentDevicesNeedExplicitPermission) {
  const json base = make_report(noisy_samples(2.7, 1));
  const json fresh = make_report(noisy_samples(2.7, 2), "ok", "NVIDIA H100 80GB HBM3");
  EXPECT_THROW(compare(base, fresh, CompareSettings{}), std::exception);
  CompareSettings allow;
  allow.allow_device_mismatch = true;
  EXPECT_FALSE(compare(base, fresh, allow).notes.empty());
}

// The command line: exit codes 0 / 1 / 2.
int run_compare_binary(const json& base, const json& fresh, const std::string& extra = "") {
  // Names of this process's own: ctest runs other tests of this binary at the same time.
  const std::string dir = ::testing::TempDir() + "compare_" + std::to_string(::getpid()) + "_";
  const std::string base_path = dir + "base.json", new_path = dir + "new.json";
  std::ofstream(base_path) << base.dump();
  std::ofstream(new_path) << fresh.dump();
  const std::string command = std::string(MISHBENCH_BINARY) + " compare " + base_path + " " +
                              new_path + " " + extra + " > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  return WEXITSTATUS(status);
}

TEST(CompareCli, ExitCodes) {
  const json base = make_report(noisy_samples(2.7, 1));
  EXPECT_EQ(run_compare_binary(base, make_report(noisy_samples(2.7, 2))), 0);
  EXPECT_EQ(run_compare_binary(base, make_report(noisy_samples(2.7 * 1.05, 2))), 1);
  EXPECT_EQ(run_compare_binary(base, make_report(noisy_samples(2.7 * 0.9, 2))), 0);
  EXPECT_EQ(run_compare_binary(base, json{{"schema_version", "1.0.0"}}), 2);
  EXPECT_EQ(run_compare_binary(base, json::array()), 2);
  json newer = make_report(noisy_samples(2.7, 2));
  newer["schema_version"] = "2.0.0";
  EXPECT_EQ(run_compare_binary(base, newer), 2);
}

TEST(CompareCli, UnreadableAndInvalidFilesExitTwo) {
  const std::string missing = std::string(MISHBENCH_BINARY) +
                              " compare /nonexistent/a.json /nonexistent/b.json > /dev/null 2>&1";
  EXPECT_EQ(WEXITSTATUS(std::system(missing.c_str())), 2);
  const std::string path = ::testing::TempDir() + "not_json.json";
  std::ofstream(path) << "{ this is not json";
  const std::string invalid =
      std::string(MISHBENCH_BINARY) + " compare " + path + " " + path + " > /dev/null 2>&1";
  EXPECT_EQ(WEXITSTATUS(std::system(invalid.c_str())), 2);
}

TEST(CompareCli, TwoMillionSampleReportsCompareInSeconds) {
  const json base = make_report(noisy_samples(2.7, 1, 1'000'000));
  const json fresh = make_report(noisy_samples(2.7 * 1.05, 2, 1'000'000));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(run_compare_binary(base, fresh), 1);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 30.0) << "about 2 s on an idle machine";  // minutes before subsampling
}

}  // namespace
}  // namespace mish

namespace mish {
namespace {

// Figures taken while other processes used the GPU cannot gate, unless the user allows it.
TEST(Compare, SharedGpuFiguresAreRefusedUnlessAllowed) {
  const json base = make_report(noisy_samples(2.7, 1));
  json fresh = make_report(noisy_samples(2.7, 2));
  fresh["results"][0]["honesty"] = {{"shared_gpu", true}};
  try {
    compare(base, fresh, CompareSettings{});
    ADD_FAILURE() << "a shared-GPU report was compared";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("--allow-shared-gpu"), std::string::npos);
  }
  CompareSettings allowed;
  allowed.allow_shared_gpu = true;
  EXPECT_EQ(compare(base, fresh, allowed).rows.size(), 1u);
}

}  // namespace
}  // namespace mish
