// mishbench merge on synthetic node reports: the merged report is valid (schema check and the
// published JSON Schema), keeps each result's device and host with every index shifted, carries
// each input in merged_from, merges merged reports; and it refuses what would not mean one thing
// (other schema versions, other problems or measurement settings, a device twice, broken
// indices), with a message naming the file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "base/common/errors.h"
#include "mishbench_process.h"
#include "node_report_fixture.h"
#include "report_schema_check.h"
#include "reports/compare/report_input.h"
#include "reports/merge/merge.h"
#include "reports/report/schema.h"
#include "settings/settings.h"
#include "thrown.h"

namespace mish {
namespace {

using nlohmann::json;

json node(const std::string& hostname, std::vector<double> fused_ms, int uuid_base) {
  SyntheticNode n;
  n.hostname = hostname;
  n.fused_ms = std::move(fused_ms);
  n.uuid_base = uuid_base;
  n.seed = static_cast<uint64_t>(uuid_base) + 1;
  return node_report(n);
}

json merge(const std::vector<json>& reports) {
  std::vector<MergeInput> inputs;
  for (size_t i = 0; i < reports.size(); ++i)
    inputs.push_back({"node" + std::to_string(i) + ".json", reports[i]});
  return json::parse(merge_reports(inputs, {"mishbench", "merge"}).dump());
}

std::string refusal(const std::vector<json>& reports) {
  return thrown<UsageError>([&] { merge(reports); });
}

TEST(Merge, KeepsEachResultsDeviceAndHost) {
  const json a = node("node-a", {2.7, 2.7}, 0), b = node("node-b", {2.7, 2.9, 2.7}, 10);
  const json m = merge({a, b});
  EXPECT_TRUE(check_report(m).ok());
  expect_matches_published_schema(m);
  EXPECT_EQ(m["schema_version"], kSchemaVersion);
  EXPECT_EQ(m["argv"], json({"mishbench", "merge"}));
  ASSERT_EQ(m["hosts"].size(), 2u);
  EXPECT_EQ(m["hosts"][1]["hostname"], "node-b");
  EXPECT_EQ(m["host"], m["hosts"][0]);
  ASSERT_EQ(m["devices"].size(), 5u);
  EXPECT_EQ(m["device"], m["devices"][0]);
  EXPECT_EQ(m["devices"][3]["uuid"], synthetic_uuid(11));
  EXPECT_EQ(m["devices"][3]["ordinal"], 1);  // its CUDA index on node-b, unchanged
  EXPECT_EQ(m["devices"][3]["host_index"], 1);
  ASSERT_EQ(m["results"].size(), a["results"].size() + b["results"].size());
  // node-b's results: fused on its three devices, then cpu on its host.
  const json& b_fused1 = m["results"][a["results"].size() + 1];
  EXPECT_EQ(b_fused1["device_index"], 3);
  EXPECT_EQ(b_fused1["host_index"], 1);
  EXPECT_EQ(b_fused1["timing"], b["results"][1]["timing"]);
  const json& b_cpu = m["results"].back();
  EXPECT_EQ(b_cpu["backend"], "cpu");
  EXPECT_TRUE(b_cpu["device_index"].is_null());
  EXPECT_EQ(b_cpu["host_index"], 1);
  ASSERT_EQ(m["node_summary"].size(), 2u);  // one row per node
  EXPECT_EQ(m["node_summary"][1]["host_index"], 1);
  EXPECT_EQ(m["node_summary"][1]["devices"][0]["device_index"], 2);
  ASSERT_EQ(m["merged_from"].size(), 2u);
  EXPECT_EQ(m["merged_from"][1]["host_index"], 1);
  EXPECT_EQ(m["merged_from"][1]["timestamp"], b["timestamp"]);
  EXPECT_EQ(m["merged_from"][1]["settings"], b["settings"]);
}

TEST(Merge, MergesMergedReportsAndHostOnlyRuns) {
  const json ab = merge({node("node-a", {2.7, 2.7}, 0), node("node-b", {2.7}, 10)});
  json host_only = node("node-c", {}, 20);
  const json m = merge({ab, host_only});
  expect_matches_published_schema(m);
  EXPECT_EQ(m["hosts"].size(), 3u);
  EXPECT_EQ(m["devices"].size(), 3u);
  ASSERT_EQ(m["merged_from"].size(), 3u);
  EXPECT_EQ(m["merged_from"][2]["host_index"], 2);
  EXPECT_EQ(m["results"].back()["host_index"], 2);
  EXPECT_TRUE(m["results"].back()["device_index"].is_null());
  // A report that reads it matches node-c's cpu result to no device (node-c has none).
  const ReportSummary summary = summarize_report(m, "m.json");
  EXPECT_FALSE(summary.results.back().device);
  EXPECT_EQ(summary.results[4].device, 2u);  // node-b's cpu: with node-b's first device
}

TEST(Merge, RefusesOtherSchemaVersions) {
  json older = node("node-b", {2.7}, 10);
  older["schema_version"] = "1.2.0";
  EXPECT_NE(refusal({node("node-a", {2.7}, 0), older})
                .find("'node1.json': schema 1.2.0 does not "
                      "say which device each result ran on"),
            std::string::npos);
  json newer = node("node-b", {2.7}, 10);
  const SchemaVersion ours = *parse_schema_version(kSchemaVersion);
  const std::string next = std::to_string(ours.major) + "." + std::to_string(ours.minor + 1) + ".0";
  newer["schema_version"] = next;
  EXPECT_NE(refusal({newer}).find("schema " + next + " is newer than this build's"),
            std::string::npos);
}

TEST(Merge, RefusesOtherProblemsAndSettings) {
  json other_problem = node("node-b", {2.7}, 10);
  for (json& result : other_problem["results"]) result["problem"]["seed"] = 7;
  const std::string problems = refusal({node("node-a", {2.7}, 0), other_problem});
  EXPECT_NE(problems.find("'node1.json': its problems (64x128x256 kernelbench seed 7)"),
            std::string::npos)
      << problems;
  // Every setting the table marks must_agree_to_merge, and nothing the table does not know.
  const std::vector<std::string> agreed = report_keys_of(&Setting::must_agree_to_merge);
  for (const char* key : {"warmup", "iters", "l2", "graph", "atol", "include_prepack",
                          "backend_options"})
    EXPECT_NE(std::find(agreed.begin(), agreed.end(), key), agreed.end()) << key;
  for (const std::string& key : agreed) {
    json other = node("node-b", {2.7}, 10);
    other["settings"][key] = {{"differs", key}};
    const std::string message = refusal({node("node-a", {2.7}, 0), other});
    EXPECT_NE(message.find("setting '" + key + "'"), std::string::npos) << message;
  }
  // Where the devices sit, and how they ran, may differ from node to node.
  json placement = node("node-b", {2.7}, 10);
  placement["settings"]["devices"] = "0";
  placement["settings"]["devices_parallel"] = true;
  expect_matches_published_schema(merge({node("node-a", {2.7}, 0), placement}));
}

TEST(Merge, RefusesADeviceTwice) {
  const json a = node("node-a", {2.7, 2.7}, 0);
  const std::string message = refusal({a, a});
  EXPECT_NE(message.find("device " + synthetic_uuid(0) + " is in 'node0.json' too"),
            std::string::npos)
      << message;
}

TEST(Merge, RefusesAHostsResultsTwice) {
  const json host_only = node("node-c", {}, 20);
  const std::string message = refusal({host_only, host_only});
  EXPECT_NE(message.find("'node1.json': host backend 'cpu' on problem 64x128x256 kernelbench "
                         "seed 42 of host 'node-c' is in 'node0.json' too"),
            std::string::npos)
      << message;
  // Another host's run of the same backend and problem is merged.
  json other_host = host_only;
  other_host["hosts"][0]["hostname"] = "node-d";
  other_host["host"]["hostname"] = "node-d";
  EXPECT_EQ(merge({host_only, other_host})["hosts"].size(), 2u);
}

TEST(Merge, RefusesBrokenIndicesInsteadOfShiftingThem) {
  const json good = node("node-a", {2.7, 2.7}, 0);
  const auto broken = [&](const char* pointer, const json& value) {
    json r = good;
    r[json::json_pointer(pointer)] = value;
    return refusal({r});
  };
  EXPECT_NE(broken("/results/0/device_index", 7).find("results[0].device_index"),
            std::string::npos);
  EXPECT_NE(broken("/results/0/host_index", -1).find("results[0].host_index"), std::string::npos);
  EXPECT_NE(broken("/devices/1/host_index", 1).find("devices[1].host_index"), std::string::npos);
  EXPECT_NE(broken("/node_summary/0/devices/1/device_index", "1").find("device_index"),
            std::string::npos);
  EXPECT_NE(broken("/hosts", json::array()).find("'hosts'"), std::string::npos);
  EXPECT_NE(broken("/merged_from", json::object()).find("'merged_from' must be an array"),
            std::string::npos);
  json no_devices = good;
  no_devices.erase("devices");
  EXPECT_NE(refusal({no_devices}).find("'devices' must be an array"), std::string::npos);
}

TEST(Merge, CommandWritesAValidReportAndRefusesBadInput) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "mish_merge_command";
  fs::create_directories(dir);
  const auto write = [&](const std::string& name, const json& report) {
    std::ofstream(dir / name) << report.dump();
    return (dir / name).string();
  };
  const std::string a = write("a.json", node("node-a", {2.7, 2.7}, 0));
  const std::string b = write("b.json", node("node-b", {2.7}, 10));
  const ProcessResult printed = run_mishbench({"merge", a, b}, dir.string());
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  const json merged = json::parse(printed.out);
  EXPECT_EQ(merged["hosts"].size(), 2u);
  expect_matches_published_schema(merged);
  const std::string out = (dir / "merged.json").string();
  const ProcessResult written = run_mishbench({"merge", a, b, "--json", out}, dir.string());
  ASSERT_EQ(written.exit_code, 0) << written.err;
  EXPECT_TRUE(written.out.empty());
  std::ifstream file(out);
  EXPECT_EQ(json::parse(file)["devices"].size(), 3u);
  // Refusals: the same device twice, an output that is an input, a file that is not a report.
  EXPECT_EQ(run_mishbench({"merge", a, a}, dir.string()).exit_code, 2);
  const ProcessResult onto_input = run_mishbench({"merge", a, b, "--json", a}, dir.string());
  EXPECT_EQ(onto_input.exit_code, 2);
  EXPECT_NE(onto_input.err.find("mishbench merge: --json"), std::string::npos) << onto_input.err;
  const std::string junk = write("junk.json", json{{"hello", 1}});
  const ProcessResult not_a_report = run_mishbench({"merge", a, junk}, dir.string());
  EXPECT_EQ(not_a_report.exit_code, 2);
  EXPECT_NE(not_a_report.err.find("not a usable mishbench report"), std::string::npos)
      << not_a_report.err;
  EXPECT_EQ(run_mishbench({"merge"}, dir.string()).exit_code, 2);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mish
