// `mishbench ab`: the ABBA order and each round's command line, the paired statistics, the
// verdicts combined over pairs, and the command itself on the cpu backend (no GPU): an A/A gate
// of one binary against itself, and a planted slowdown it must catch.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/common/errors.h"
#include "mishbench_process.h"
#include "reports/ab/ab_plan.h"
#include "reports/ab/paired_outcome.h"
#include "reports/compare/paired.h"
#include "thrown.h"

namespace mish {
namespace {

namespace fs = std::filesystem;

TEST(AbPlan, RoundsRunInAbbaOrder) {
  std::string order;
  for (int round = 1; round <= 8; ++round)
    order += build_of_round(round) == Build::base ? 'A' : 'B';
  EXPECT_EQ(order, "ABBAABBA");
  EXPECT_EQ(pair_of_round(1), 1);
  EXPECT_EQ(pair_of_round(2), 1);
  EXPECT_EQ(pair_of_round(3), 2);
}

TEST(AbPlan, EachRoundGetsItsBuildAndTheSameRunArguments) {
  AbPlan plan;
  plan.base = {"/old/mishbench", "", {"--backend-option", "x.spin_us=0"}};
  plan.fresh = {"/self/mishbench", "/b/libmine.so", {}};
  plan.run_args = {"--backend=cpu", "--seed", "7"};
  plan.folder = "/rounds";
  EXPECT_EQ(round_argv(plan, 1),
            (std::vector<std::string>{"/old/mishbench", "--backend=cpu", "--seed", "7",
                                      "--backend-option", "x.spin_us=0", "--json",
                                      "/rounds/round-001-base.json"}));
  EXPECT_EQ(round_argv(plan, 2),
            (std::vector<std::string>{"/self/mishbench", "--plugin", "/b/libmine.so",
                                      "--backend=cpu", "--seed", "7", "--json",
                                      "/rounds/round-002-new.json"}));
  EXPECT_EQ(log_path(plan, 4), "/rounds/round-004-base.log");
}

TEST(AbPlan, RunArgumentsMayNotTakeTheReport) {
  AbPlan plan;
  plan.run_args = {"--backend=cpu", "--json=mine.json"};
  EXPECT_NE(thrown<UsageError>([&] { check_plan(plan); }).find("the run arguments hold"),
            std::string::npos);
  plan.run_args = {};
  plan.fresh.extra = {"--json", "x.json"};
  EXPECT_NE(thrown<UsageError>([&] { check_plan(plan); }).find("--new-arg hold '--json'"),
            std::string::npos);
}

TEST(Paired, SignTestMatchesTheBinomial) {
  EXPECT_DOUBLE_EQ(sign_test_p(0, 0), 1.0);
  EXPECT_NEAR(sign_test_p(8, 0), 2.0 / 256.0, 1e-12);
  EXPECT_NEAR(sign_test_p(1, 7), 2.0 * 9.0 / 256.0, 1e-12);
  EXPECT_DOUBLE_EQ(sign_test_p(5, 5), 1.0);
}

TEST(Paired, RatioIsTheMedianWithAnOrderStatisticInterval) {
  const PairedRatio r = paired_ratio({1.05, 1.04, 1.06, 1.05, 1.07, 1.03, 1.05, 1.04, 1.06, 1.05});
  EXPECT_DOUBLE_EQ(r.ratio.ratio, 1.05);
  EXPECT_LE(r.ratio.low, 1.04);
  EXPECT_GE(r.ratio.high, 1.06);
  EXPECT_LT(r.p_value, 0.01);  // ten of ten above 1
  EXPECT_EQ(decide(r.ratio, r.p_value, DecisionRule{}), Verdict::slower);
  const PairedRatio few = paired_ratio({1.05, 1.06, 1.05});
  EXPECT_DOUBLE_EQ(few.ratio.low, 1.05);  // below 6 pairs: the whole range
  EXPECT_DOUBLE_EQ(few.ratio.high, 1.06);
  EXPECT_EQ(decide(few.ratio, few.p_value, DecisionRule{}), Verdict::unsure);  // too few pairs
}

// A pair's row of `backend`, timed with the given medians (ratio new / base).
Comparison pair_row(const std::string& backend, double base_ms, double new_ms) {
  Comparison row;
  row.backend = backend;
  row.base_status = row.new_status = "ok";
  row.base_ms = base_ms;
  row.new_ms = new_ms;
  row.ratio = {new_ms / base_ms, new_ms / base_ms, new_ms / base_ms};
  row.verdict = Verdict::same;
  return row;
}

std::vector<CompareOutcome> pairs_of(const std::vector<std::vector<Comparison>>& rows) {
  std::vector<CompareOutcome> pairs;
  for (const std::vector<Comparison>& pair : rows) {
    CompareOutcome outcome;
    outcome.rows = pair;
    pairs.push_back(outcome);
  }
  return pairs;
}

TEST(PairedOutcome, TimingIsJudgedFromThePerPairRatios) {
  std::vector<std::vector<Comparison>> rows;
  for (int pair = 0; pair < 10; ++pair) {
    const double drift = 1.0 + 0.02 * pair;  // both builds slow down together
    rows.push_back({pair_row("fused", 2.0 * drift, 2.1 * drift), pair_row("cpu", drift, drift)});
  }
  const CompareOutcome outcome = combine_pairs(pairs_of(rows), CompareSettings{});
  ASSERT_EQ(outcome.rows.size(), 2u);
  EXPECT_EQ(outcome.rows[0].verdict, Verdict::slower);
  EXPECT_NEAR(outcome.rows[0].ratio.ratio, 1.05, 1e-9);
  EXPECT_TRUE(outcome.rows[0].fails);
  EXPECT_EQ(outcome.rows[1].verdict, Verdict::same);
}

TEST(PairedOutcome, AStatusVerdictInAnyPairWins) {
  std::vector<std::vector<Comparison>> rows(8, {pair_row("fused", 2.0, 2.0)});
  rows[5][0].verdict = Verdict::skipped;
  rows[5][0].new_status = "skipped";
  const CompareOutcome outcome = combine_pairs(pairs_of(rows), CompareSettings{});
  EXPECT_EQ(outcome.rows[0].verdict, Verdict::skipped);
  EXPECT_EQ(outcome.rows[0].reason, "in 1 of 8 pairs");
  EXPECT_TRUE(outcome.rows[0].fails);
}

TEST(PairedOutcome, ASlowdownThatFollowsTheClockIsUnsure) {
  std::vector<std::vector<Comparison>> rows;
  for (int pair = 0; pair < 10; ++pair) {
    Comparison row = pair_row("fused", 2.0, 2.2);  // 10% slower in time ...
    row.cycles = RatioInterval{1.0, 1.0, 1.0};      // ... at a 10% lower clock
    row.clocks = "SM clock 1980 → 1800 MHz";
    rows.push_back({row});
  }
  const CompareOutcome outcome = combine_pairs(pairs_of(rows), CompareSettings{});
  EXPECT_EQ(outcome.rows[0].verdict, Verdict::unsure);
  EXPECT_NE(outcome.rows[0].reason.find("SAME in cycles"), std::string::npos)
      << outcome.rows[0].reason;
  EXPECT_EQ(outcome.rows[0].clocks, "in 10 of 10 pairs, e.g. SM clock 1980 → 1800 MHz");
  EXPECT_FALSE(outcome.rows[0].fails);
}

// The command, as CI runs it: an A/A gate of the built binary against itself on the cpu
// backend at a small shape, and a planted slowdown of the host test plugin.
class AbCli : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir = fs::temp_directory_path() / ("mish_ab_" + std::to_string(::getpid()) + "_" + test);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  ProcessResult ab(std::vector<std::string> args) const {
    args.insert(args.begin(), "ab");
    ProcessOptions options;
    options.timeout_seconds = 600;
    return run_mishbench(args, dir.string(), options);
  }
  fs::path dir;
};

TEST_F(AbCli, AnAaGateOnTheCpuBackendIsNeverSlowerOrFaster) {
  const std::string json = (dir / "ab.json").string();
  const ProcessResult r =
      ab({"--base", MISHBENCH_BINARY, "--new", MISHBENCH_BINARY, "--json", json, "--",
          "--backend=cpu", "--m", "64", "--n", "256", "--k", "512", "--warmup", "5", "--iters",
          "30"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("SLOWER"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FASTER"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("### mishbench ab:"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("mishbench ab: round 1 of 16: base build"), std::string::npos) << r.err;
  const nlohmann::json out = nlohmann::json::parse(std::ifstream(json));
  EXPECT_EQ(out["order"], "ABBA");
  EXPECT_GE(out["rounds"].get<int>(), 16);
  EXPECT_EQ(out["rows"][0]["backend"], "cpu");
}

TEST_F(AbCli, APlantedSlowdownIsCaught) {
  const std::string plugin = std::string(MISHBENCH_TEST_PLUGIN_DIR) +
                             "/libmishtest_planted_slowdown_host.so";
  const ProcessResult r = ab(
      {"--base-plugin", plugin, "--new-plugin", plugin, "--rounds", "16", "--rounds-dir",
       (dir / "rounds").string(), "--new-arg=--backend-option=planted-slowdown-host.spin_us=300",
       "--", "--backend=planted-slowdown-host", "--m", "16", "--n", "32", "--k", "64",
       "--warmup", "3", "--iters", "20"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("**SLOWER**"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir / "rounds" / "round-016-base.json"));
}

TEST_F(AbCli, RefusesAnIncompleteOrMixedPairOfBuilds) {
  ProcessResult r = ab({"--base", MISHBENCH_BINARY, "--", "--backend=cpu"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give --base BIN and --new BIN"), std::string::npos) << r.err;
  r = ab({"--base", MISHBENCH_BINARY, "--new", MISHBENCH_BINARY, "--rounds", "7"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give even numbers"), std::string::npos) << r.err;
}

TEST_F(AbCli, ARoundWhoseArgumentsAreRefusedEndsWithExitTwo) {
  const ProcessResult r = ab({"--base", MISHBENCH_BINARY, "--new", MISHBENCH_BINARY, "--rounds",
                              "2", "--", "--backend=nonexistent"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("round 1 (base build"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unknown backend 'nonexistent'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace mish
