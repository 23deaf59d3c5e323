// compare as a gate: a backend of BASE that NEW skipped, broke, lost or ran on another problem
// fails it with a verdict of its own, unless an allow-list names it; a report in which nothing
// was timed is refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/common/errors.h"
#include "mishbench_process.h"
#include "report_fixture.h"
#include "reports/compare/compare.h"
#include "reports/compare/render.h"
#include "thrown.h"

namespace mish {
namespace {

using nlohmann::json;

// A result of `backend` with `status`, timed unless the status says it could not be.
json result_of(const std::string& backend, const std::string& status, uint64_t seed) {
  json result = make_report(noisy_samples(2.7, seed), status)["results"][0];
  result["backend"] = backend;
  if (status == "skipped" || status == "error") result["timing"] = nullptr;
  return result;
}

// A report of `fused` and `cpu` with these statuses.
json report_of(const std::string& fused, const std::string& cpu, uint64_t seed) {
  json report = make_report(noisy_samples(2.7, seed));
  report["results"] = json::array({result_of("fused", fused, seed), result_of("cpu", cpu, seed)});
  return report;
}

CompareOutcome compare(const json& base, const json& fresh, const CompareSettings& s = {}) {
  return compare_reports(summarize_report(base, "base"), summarize_report(fresh, "new"), s);
}

const Comparison& row_of(const CompareOutcome& outcome, const std::string& backend) {
  for (const Comparison& row : outcome.rows)
    if (row.backend == backend) return row;
  throw std::runtime_error("no row of " + backend);
}

TEST(CompareGate, SkippedInNewFails) {
  const CompareOutcome outcome = compare(report_of("ok", "ok", 1), report_of("skipped", "ok", 2));
  EXPECT_EQ(row_of(outcome, "fused").verdict, Verdict::skipped);
  EXPECT_TRUE(row_of(outcome, "fused").fails);
  EXPECT_EQ(row_of(outcome, "cpu").verdict, Verdict::same);
  EXPECT_EQ(outcome.failures(), 1);
}

TEST(CompareGate, EveryFailingStatusIsBroken) {
  for (const char* status : {"error", "implausible", "mismatch"}) {
    const CompareOutcome outcome = compare(report_of("ok", "ok", 1), report_of(status, "ok", 2));
    EXPECT_EQ(row_of(outcome, "fused").verdict, Verdict::broken) << status;
    EXPECT_EQ(outcome.failures(), 1) << status;
  }
  const CompareOutcome from_skipped =
      compare(report_of("skipped", "ok", 1), report_of("error", "ok", 2));
  EXPECT_EQ(row_of(from_skipped, "fused").verdict, Verdict::broken);
}

TEST(CompareGate, AMismatchAsBeforeIsJudgedByItsTiming) {
  // A reduced-precision backend mismatches in every run: its timing still decides.
  const CompareOutcome outcome =
      compare(report_of("mismatch", "ok", 1), report_of("mismatch", "ok", 2));
  EXPECT_EQ(row_of(outcome, "fused").verdict, Verdict::same);
  EXPECT_EQ(outcome.failures(), 0);
}

TEST(CompareGate, MissingInNewFails) {
  json fresh = report_of("ok", "ok", 2);
  fresh["results"].erase(0);
  const CompareOutcome outcome = compare(report_of("ok", "ok", 1), fresh);
  EXPECT_EQ(row_of(outcome, "fused").verdict, Verdict::missing);
  EXPECT_EQ(row_of(outcome, "fused").reason, "not in NEW");
  EXPECT_GT(row_of(outcome, "fused").base_ms, 0.0);
  EXPECT_EQ(outcome.failures(), 1);
}

TEST(CompareGate, AnotherProblemInNewIsMissingWithTheReason) {
  json fresh = report_of("ok", "ok", 2);
  fresh["results"][0]["problem"]["m"] = 64;
  const CompareOutcome outcome = compare(report_of("ok", "ok", 1), fresh);
  ASSERT_EQ(outcome.rows.size(), 3u);
  for (const Comparison& row : outcome.rows) {
    if (row.verdict == Verdict::added) EXPECT_FALSE(row.fails);  // NEW never fails
    if (row.verdict != Verdict::missing) continue;
    EXPECT_EQ(row.backend, "fused");
    EXPECT_NE(row.reason.find("another problem (64x8192x8192"), std::string::npos) << row.reason;
  }
  EXPECT_EQ(outcome.failures(), 1);
}

TEST(CompareGate, AllowListsExcuseTheirOwnVerdictsOnly) {
  CompareSettings allow;
  allow.allow_missing = {"fused"};
  const CompareOutcome skipped =
      compare(report_of("ok", "ok", 1), report_of("skipped", "ok", 2), allow);
  EXPECT_TRUE(row_of(skipped, "fused").allowed);
  EXPECT_FALSE(row_of(skipped, "fused").fails);
  EXPECT_EQ(skipped.failures(), 0);
  CompareSettings other;
  other.allow_missing = {"cpu"};  // not the backend that was skipped
  EXPECT_TRUE(
      row_of(compare(report_of("ok", "ok", 1), report_of("skipped", "ok", 2), other), "fused")
          .fails);
  const CompareOutcome broken =
      compare(report_of("ok", "ok", 1), report_of("error", "ok", 2), allow);
  EXPECT_TRUE(row_of(broken, "fused").fails);  // --allow-missing does not excuse BROKEN
  allow.allow_broken = {"fused"};
  EXPECT_EQ(compare(report_of("ok", "ok", 1), report_of("error", "ok", 2), allow).failures(), 0);
}

TEST(CompareGate, UntimedFailsOnlyWhenBaseWasTimed) {
  const CompareOutcome both_skipped =
      compare(report_of("skipped", "ok", 1), report_of("skipped", "ok", 2));
  EXPECT_EQ(row_of(both_skipped, "fused").verdict, Verdict::untimed);
  EXPECT_FALSE(row_of(both_skipped, "fused").fails);
  json untimed = report_of("ok", "ok", 2);
  untimed["results"][0]["timing"] = nullptr;  // ok, yet no samples
  const CompareOutcome lost = compare(report_of("ok", "ok", 1), untimed);
  EXPECT_EQ(row_of(lost, "fused").verdict, Verdict::untimed);
  EXPECT_TRUE(row_of(lost, "fused").fails);
}

TEST(CompareGate, NothingTimedIsRefused) {
  const std::string refused = thrown<UsageError>(
      [] { compare(report_of("ok", "ok", 1), report_of("skipped", "error", 2)); });
  EXPECT_NE(refused.find("nothing was timed in 'new' (1 error, 1 skipped)"), std::string::npos)
      << refused;
  EXPECT_NE(thrown<UsageError>([] {
              compare(report_of("skipped", "skipped", 1), report_of("ok", "ok", 2));
            }).find("nothing was timed in 'base'"),
            std::string::npos);
}

TEST(CompareGate, JsonIsVersionedAndSaysWhatFails) {
  CompareSettings allow;
  allow.allow_missing = {"cpu"};
  const json out = to_json(
      compare(report_of("ok", "ok", 1), report_of("ok", "skipped", 2), allow), allow);
  EXPECT_EQ(out["schema_version"], kCompareSchemaVersion);
  EXPECT_EQ(out["failures"], 0);
  ASSERT_EQ(out["rows"].size(), 2u);
  EXPECT_EQ(out["rows"][1]["verdict"], "SKIPPED");
  EXPECT_EQ(out["rows"][1]["allowed"], true);
  EXPECT_EQ(out["rows"][1]["fails"], false);
}

// The command line: exit 1 for a failing row, 0 when it is allowed, 2 when nothing was timed.
class CompareGateCli : public ::testing::Test {
 protected:
  int run(const json& base, const json& fresh, std::vector<std::string> extra = {}) {
    const std::string dir = ::testing::TempDir();
    const std::string stem = dir + "gate_" + std::to_string(::getpid());
    std::ofstream(stem + "_base.json") << base.dump();
    std::ofstream(stem + "_new.json") << fresh.dump();
    std::vector<std::string> args = {"compare", stem + "_base.json", stem + "_new.json"};
    args.insert(args.end(), extra.begin(), extra.end());
    result = run_mishbench(args, dir);
    return result.exit_code;
  }
  ProcessResult result;
};

TEST_F(CompareGateCli, ExitCodesOfTheStrictGate) {
  const json base = report_of("ok", "ok", 1);
  EXPECT_EQ(run(base, report_of("skipped", "ok", 2)), 1);
  EXPECT_NE(result.out.find("**SKIPPED**"), std::string::npos) << result.out;
  EXPECT_EQ(run(base, report_of("skipped", "ok", 2), {"--allow-missing", "fused"}), 0);
  EXPECT_NE(result.out.find("SKIPPED (allowed)"), std::string::npos) << result.out;
  EXPECT_EQ(run(base, report_of("implausible", "ok", 2)), 1);
  EXPECT_EQ(run(base, report_of("implausible", "ok", 2), {"--allow-broken=cpu,fused"}), 0);
  EXPECT_EQ(run(base, report_of("skipped", "skipped", 2)), 2);
  EXPECT_NE(result.err.find("nothing was timed in"), std::string::npos) << result.err;
  EXPECT_EQ(run(base, base, {"--allow-missing", "fused,"}), 2);
  EXPECT_NE(result.err.find("--allow-missing 'fused,' has an empty name"), std::string::npos)
      << result.err;
}

}  // namespace
}  // namespace mish
