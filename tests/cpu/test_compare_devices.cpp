// compare on reports of several devices: results pair by CUDA device index (the default) or by
// device UUID (a card that moved to another slot is followed); a slow card is SLOWER on its own
// row; a one-device report compares with an older one exactly as before; UUIDs asked of a report
// without them, and index matching of a merged report of several hosts, are refused.
#include <gtest/gtest.h>

#include "base/common/errors.h"
#include "node_report_fixture.h"
#include "report_fixture.h"
#include "reports/compare/compare.h"
#include "reports/compare/render.h"
#include "reports/merge/merge.h"
#include "thrown.h"

namespace mish {
namespace {

using nlohmann::json;

CompareOutcome compare(const json& base, const json& fresh, DeviceMatch match) {
  CompareSettings settings;
  settings.match = match;
  return compare_reports(summarize_report(base, "base.json"), summarize_report(fresh, "new.json"),
                         settings);
}

const Comparison& row_for(const CompareOutcome& outcome, const std::string& backend,
                          const std::string& device) {
  for (const Comparison& row : outcome.rows)
    if (row.backend == backend && row.device == device) return row;
  throw std::runtime_error("no row for " + backend + " on " + device);
}

SyntheticNode node_of(std::vector<double> fused_ms, uint64_t seed) {
  SyntheticNode node;
  node.fused_ms = std::move(fused_ms);
  node.seed = seed;
  return node;
}

TEST(CompareDevices, ByIndexEachDeviceIsJudgedOnItsOwn) {
  const json base = node_report(node_of({2.7, 2.7, 2.7}, 1));
  const json fresh = node_report(node_of({2.7, 2.7 * 1.1, 2.7}, 50));
  const CompareOutcome outcome = compare(base, fresh, DeviceMatch::index);
  EXPECT_TRUE(outcome.per_device);
  EXPECT_EQ(outcome.rows.size(), 4u);  // fused on three devices, cpu with device 0
  EXPECT_EQ(row_for(outcome, "fused", "0").verdict, Verdict::same);
  EXPECT_EQ(row_for(outcome, "fused", "1").verdict, Verdict::slower);
  EXPECT_EQ(row_for(outcome, "fused", "2").verdict, Verdict::same);
  EXPECT_EQ(row_for(outcome, "cpu", "0").verdict, Verdict::same);
  EXPECT_EQ(outcome.failures(), 1);
  const std::string markdown = to_markdown(outcome, CompareSettings{});
  EXPECT_NE(markdown.find("| backend | device | problem |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| fused | 1 | 64x128x256"), std::string::npos) << markdown;
  EXPECT_EQ(to_json(outcome, CompareSettings{})["rows"][1]["device"], "1");
}

TEST(CompareDevices, ByUuidACardIsFollowedToItsNewSlot) {
  // The slow card (UUID 1) sat at index 1 in BASE and sits at index 0 in NEW.
  SyntheticNode before = node_of({2.7, 2.9}, 1), after = node_of({2.9, 2.7}, 50);
  json base = node_report(before), fresh = node_report(after);
  std::swap(fresh["devices"][0]["uuid"], fresh["devices"][1]["uuid"]);
  fresh["device"] = fresh["devices"][0];
  const CompareOutcome by_uuid = compare(base, fresh, DeviceMatch::uuid);
  EXPECT_EQ(row_for(by_uuid, "fused", synthetic_uuid(0)).verdict, Verdict::same);
  EXPECT_EQ(row_for(by_uuid, "fused", synthetic_uuid(1)).verdict, Verdict::same);
  EXPECT_EQ(row_for(by_uuid, "cpu", "host node-a").verdict, Verdict::same);  // by host name
  EXPECT_EQ(by_uuid.failures(), 0);
  const CompareOutcome by_index = compare(base, fresh, DeviceMatch::index);
  EXPECT_EQ(row_for(by_index, "fused", "0").verdict, Verdict::slower);
  EXPECT_EQ(row_for(by_index, "fused", "1").verdict, Verdict::faster);
}

TEST(CompareDevices, AOneDeviceReportComparesWithAnOlderOneAsBefore) {
  // A 1.0 report (one device, no UUID) against today's one-device report of the same figures.
  json old_report = make_report(noisy_samples(2.7, 1));
  SyntheticNode node = node_of({2.7}, 1);
  json today = node_report(node);
  today["results"][0]["problem"] = old_report["results"][0]["problem"];
  today["results"].erase(1);  // cpu: the old report has fused only
  today["results"][0]["timing"]["samples_ms"] = noisy_samples(2.7, 2);
  const CompareOutcome outcome = compare(old_report, today, DeviceMatch::index);
  EXPECT_FALSE(outcome.per_device);
  ASSERT_EQ(outcome.rows.size(), 1u);
  EXPECT_EQ(outcome.rows[0].verdict, Verdict::same);
  for (const std::string& note : outcome.notes)
    EXPECT_EQ(note.find("devices differ"), std::string::npos) << note;
  const std::string markdown = to_markdown(outcome, CompareSettings{});
  EXPECT_NE(markdown.find("| backend | problem | status |"), std::string::npos) << markdown;
  const std::string refused =
      thrown<UsageError>([&] { compare(old_report, today, DeviceMatch::uuid); });
  EXPECT_NE(refused.find("'base.json' does not record device UUIDs"), std::string::npos) << refused;
}

TEST(CompareDevices, AMergedReportOfSeveralHostsNeedsUuids) {
  SyntheticNode a = node_of({2.7, 2.7}, 1), b = node_of({2.7, 2.7}, 2);
  b.hostname = "node-b";
  b.uuid_base = 10;
  const json merged =
      merge_reports({{"a.json", node_report(a)}, {"b.json", node_report(b)}}, {"mishbench"});
  const std::string refused =
      thrown<UsageError>([&] { compare(merged, merged, DeviceMatch::index); });
  EXPECT_NE(refused.find("compare it with --match-devices uuid"), std::string::npos) << refused;
  const CompareOutcome outcome = compare(merged, merged, DeviceMatch::uuid);
  EXPECT_EQ(outcome.rows.size(), 6u);  // fused on four cards, cpu by each host's name
  EXPECT_EQ(row_for(outcome, "cpu", "host node-b").verdict, Verdict::same);
  for (const Comparison& row : outcome.rows) EXPECT_EQ(row.verdict, Verdict::same) << row.backend;
}

TEST(CompareDevices, HostOnlyRunsOfAMergedReportPairByHostName) {
  SyntheticNode a = node_of({}, 1), b = node_of({}, 2);
  b.hostname = "node-b";
  const json merged =
      merge_reports({{"a.json", node_report(a)}, {"b.json", node_report(b)}}, {"mishbench"});
  const CompareOutcome outcome = compare(merged, merged, DeviceMatch::uuid);
  EXPECT_EQ(row_for(outcome, "cpu", "host node-a").verdict, Verdict::same);
  EXPECT_EQ(row_for(outcome, "cpu", "host node-b").verdict, Verdict::same);
  EXPECT_NE(thrown<UsageError>([&] { compare(merged, merged, DeviceMatch::index); })
                .find("on a host (from several hosts"),
            std::string::npos);
  // Two hosts of one name cannot be told apart (merge refuses them; a report edited so is read).
  json same_name = merged;
  same_name["hosts"][1]["hostname"] = "node-a";
  EXPECT_NE(thrown<UsageError>([&] { compare(same_name, same_name, DeviceMatch::uuid); })
                .find("on 'host node-a' (two hosts of one name"),
            std::string::npos);
}

TEST(CompareDevices, AResultMissingFromItsDeviceSaysTheBackendRanOnAnother) {
  const json base = node_report(node_of({2.7, 2.7}, 1));
  json fresh = node_report(node_of({2.7, 2.7}, 2));
  for (size_t i = 0; i < fresh["results"].size(); ++i)
    if (fresh["results"][i]["backend"] == "fused" && fresh["results"][i]["device_index"] == 1) {
      fresh["results"].erase(i);
      break;
    }
  const CompareOutcome outcome = compare(base, fresh, DeviceMatch::index);
  const Comparison& row = row_for(outcome, "fused", "1");
  EXPECT_EQ(row.verdict, Verdict::missing);
  EXPECT_EQ(row.reason, "NEW ran it on another device");
  EXPECT_EQ(outcome.failures(), 1);
}

TEST(CompareDevices, MatchModeIsParsedStrictly) {
  EXPECT_EQ(parse_device_match("index"), DeviceMatch::index);
  EXPECT_EQ(parse_device_match("uuid"), DeviceMatch::uuid);
  EXPECT_NE(thrown<UsageError>([] { parse_device_match("UUID"); }).find("choose index or uuid"),
            std::string::npos);
}

}  // namespace
}  // namespace mish
