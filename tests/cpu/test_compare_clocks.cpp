// Clock-aware verdicts: compare reads each side's SM clock and power-cap share, says when they
// differ, and confirms a time difference in cycles; one the clock explains is UNSURE.
#include <gtest/gtest.h>

#include <string>

#include "base/common/errors.h"
#include "report_fixture.h"
#include "reports/compare/clocks.h"
#include "reports/compare/compare.h"
#include "reports/compare/render.h"
#include "thrown.h"

namespace mish {
namespace {

using nlohmann::json;

// A report of `fused` with samples around `median_ms`, read at `sm_mhz`, `capped` of 100
// samples throttled by the power cap.
json clocked_report(double median_ms, uint64_t seed, unsigned sm_mhz, int capped) {
  json report = make_report(noisy_samples(median_ms, seed));
  report["schema_version"] = "1.1.0";
  report["results"][0]["timing"]["clocks"] = {
      {"readings", 100},
      {"sm_mhz_min", sm_mhz},
      {"sm_mhz_median", sm_mhz},
      {"sm_mhz_max", sm_mhz},
      {"throttled_samples", capped},
      {"throttle_reasons", capped > 0 ? json::array({"sw_power_cap"}) : json::array()}};
  return report;
}

Comparison compare_one(const json& base, const json& fresh) {
  const CompareOutcome outcome = compare_reports(summarize_report(base, "base"),
                                                 summarize_report(fresh, "new"), {});
  return outcome.rows.at(0);
}

TEST(CompareClocks, ASlowdownAtALowerClockIsUnsureWithTheReason) {
  // 10% slower at a 10% lower clock: the same number of cycles.
  const Comparison row = compare_one(clocked_report(2.0, 1, 1980, 0),
                                     clocked_report(2.0 * 1980 / 1782, 2, 1782, 90));
  EXPECT_EQ(row.verdict, Verdict::unsure);
  EXPECT_NE(row.reason.find("SLOWER in time, but SAME in cycles"), std::string::npos)
      << row.reason;
  EXPECT_EQ(row.clocks, "SM clock 1980 → 1782 MHz; power-capped 0% → 90% of samples");
  ASSERT_TRUE(row.cycles);
  EXPECT_NEAR(row.cycles->ratio, 1.0, 0.01);
  EXPECT_FALSE(row.fails);
}

TEST(CompareClocks, ASlowdownAtTheSameClockStaysSlower) {
  const Comparison row =
      compare_one(clocked_report(2.0, 1, 1980, 0), clocked_report(2.2, 2, 1980, 0));
  EXPECT_EQ(row.verdict, Verdict::slower);
  EXPECT_TRUE(row.clocks.empty()) << row.clocks;
  EXPECT_TRUE(row.reason.empty()) << row.reason;
}

TEST(CompareClocks, ASlowdownThatCyclesConfirmStaysSlowerAndSaysTheClocksDiffered) {
  // 20% slower in time at a 5% lower clock: still 14% more cycles.
  const Comparison row =
      compare_one(clocked_report(2.0, 1, 1980, 0), clocked_report(2.4, 2, 1881, 0));
  EXPECT_EQ(row.verdict, Verdict::slower);
  EXPECT_EQ(row.clocks, "SM clock 1980 → 1881 MHz");
}

TEST(CompareClocks, ClocksShowInTheTableAndTheJson) {
  CompareOutcome outcome = compare_reports(
      summarize_report(clocked_report(2.0, 1, 1980, 0), "base"),
      summarize_report(clocked_report(2.0 * 1980 / 1782, 2, 1782, 0), "new"), {});
  EXPECT_NE(to_markdown(outcome, {}).find("(clocks differ: SM clock 1980 → 1782 MHz)"),
            std::string::npos);
  const json out = to_json(outcome, {});
  EXPECT_EQ(out["rows"][0]["clocks"], "SM clock 1980 → 1782 MHz");
  EXPECT_NEAR(out["rows"][0]["cycle_ratio"].get<double>(), 1.0, 0.01);
}

TEST(CompareClocks, ReportsWithoutClocksCompareInTimeAlone) {
  const Comparison row = compare_one(make_report(noisy_samples(2.0, 1)),
                                     clocked_report(2.2, 2, 1980, 0));
  EXPECT_EQ(row.verdict, Verdict::slower);
  EXPECT_FALSE(row.cycles);
}

TEST(CompareClocks, MalformedClocksAreRefused) {
  json report = clocked_report(2.0, 1, 1980, 0);
  report["results"][0]["timing"]["clocks"]["throttled_samples"] = 101;
  EXPECT_NE(thrown<UsageError>([&] { summarize_report(report, "r"); })
                .find("results[0].timing.clocks.throttled_samples"),
            std::string::npos);
  report["results"][0]["timing"]["clocks"] = "fast";
  EXPECT_NE(thrown<UsageError>([&] { summarize_report(report, "r"); })
                .find("expected an object or null"),
            std::string::npos);
}

TEST(CompareClocks, TheDifferenceNamesOnlyWhatDiffers) {
  EXPECT_EQ(clock_difference({1980, 0.0}, {1970, 0.05}), "");  // within 1% and 10 points
  EXPECT_EQ(clock_difference({1980, 0.0}, {1980, 0.5}), "power-capped 0% → 50% of samples");
}

}  // namespace
}  // namespace mish
