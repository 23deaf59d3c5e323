// The report of a run on several devices (schema 1.3): `devices` lists them with UUID and PCI
// bus id, `device` is the first, each result names its device (a host backend none), speedups
// and rooflines are taken per device, the node summary flags a slow card, and the whole passes
// the schema check and the published JSON Schema; a run on one device reads as before.
#include <gtest/gtest.h>

#include "node_report_fixture.h"
#include "report_schema_check.h"
#include "reports/report/report.h"
#include "reports/report/schema.h"

namespace mish {
namespace {

using nlohmann::json;

TEST(DeviceReport, ListsEveryDeviceAndEachResultNamesItsOwn) {
  SyntheticNode node;
  node.fused_ms = {2.7, 2.7, 2.7 * 1.1, 2.7};
  const json r = node_report(node);
  EXPECT_TRUE(check_report(r).ok());
  expect_matches_published_schema(r);
  EXPECT_EQ(r["schema_version"], "1.5.0");
  ASSERT_EQ(r["devices"].size(), 4u);
  EXPECT_EQ(r["device"], r["devices"][0]);
  EXPECT_EQ(r["hosts"], json::array({r["host"]}));
  EXPECT_EQ(r["devices"][2]["ordinal"], 2);
  EXPECT_EQ(r["devices"][2]["uuid"], synthetic_uuid(2));
  EXPECT_EQ(r["devices"][2]["pci_bus_id"], "0000:39:00.0");
  EXPECT_EQ(r["devices"][2]["host_index"], 0);
  EXPECT_EQ(r["settings"]["devices"], "all");
  EXPECT_EQ(r["settings"]["devices_parallel"], false);
  EXPECT_TRUE(r["merged_from"].is_null());
  ASSERT_EQ(r["results"].size(), 5u);
  for (size_t d = 0; d < 4; ++d) {
    EXPECT_EQ(r["results"][d]["backend"], "fused");
    EXPECT_EQ(r["results"][d]["device_index"], d);
    EXPECT_EQ(r["results"][d]["host_index"], 0);
    EXPECT_FALSE(r["results"][d]["roofline"].is_null());
  }
  const json& cpu = r["results"][4];
  EXPECT_EQ(cpu["backend"], "cpu");
  EXPECT_TRUE(cpu["device_index"].is_null());
  EXPECT_FALSE(cpu["roofline"].is_null());  // against the first device, as in a one-device run
}

TEST(DeviceReport, NodeSummaryFlagsTheSlowDevice) {
  SyntheticNode node;
  node.fused_ms = {2.7, 2.7, 2.7 * 1.1, 2.7};
  const json summary = node_report(node)["node_summary"];
  ASSERT_EQ(summary.size(), 1u);  // cpu ran on the host: not a device's
  const json& row = summary[0];
  EXPECT_EQ(row["backend"], "fused");
  EXPECT_EQ(row["band"], 0.05);
  EXPECT_EQ(row["host_index"], 0);
  EXPECT_EQ(row["problem"]["m"], 64);
  ASSERT_EQ(row["devices"].size(), 4u);
  for (size_t d = 0; d < 4; ++d) {
    EXPECT_EQ(row["devices"][d]["device_index"], d);
    EXPECT_EQ(row["devices"][d]["flag"], d == 2 ? "slow" : "") << d;
  }
  EXPECT_NEAR(row["devices"][2]["ratio"].get<double>(), 1.1, 0.02);
}

TEST(DeviceReport, SpeedupIsAgainstSeparateOnTheSameDevice) {
  RunOutcome outcome = node_outcome(SyntheticNode{});
  ProblemRun& run = outcome.runs[0];
  for (size_t d = 0; d < 2; ++d) {
    BackendResult separate = run.results[d];
    separate.backend = "separate";
    separate.samples_ms = std::vector<double>(10, d == 0 ? 5.4 : 8.1);
    separate.stats = summarize(separate.samples_ms);
    run.results.push_back(separate);
  }
  const json r = json::parse(build_report(outcome, RunConfig{}, {"mishbench"}).dump());
  const double fused0 = r["results"][0]["timing"]["median_ms"],
               fused1 = r["results"][1]["timing"]["median_ms"];
  EXPECT_NEAR(r["results"][0]["speedup_vs_separate"].get<double>(), 5.4 / fused0, 1e-9);
  EXPECT_NEAR(r["results"][1]["speedup_vs_separate"].get<double>(), 8.1 / fused1, 1e-9);
  const double cpu = r["results"][2]["timing"]["median_ms"];
  EXPECT_NEAR(r["results"][2]["speedup_vs_separate"].get<double>(), 5.4 / cpu, 1e-9);
  expect_matches_published_schema(r);
}

TEST(DeviceReport, OneDeviceReadsAsBefore) {
  SyntheticNode node;
  node.fused_ms = {2.7};
  RunConfig config;
  const json r = json::parse(build_report(node_outcome(node), config, {"mishbench"}).dump());
  expect_matches_published_schema(r);
  EXPECT_EQ(r["settings"]["devices"], "0");
  EXPECT_EQ(r["devices"].size(), 1u);
  EXPECT_EQ(r["device"]["name"], "NVIDIA H200");
  EXPECT_EQ(r["device"]["ordinal"], 0);
  EXPECT_TRUE(r["node_summary"].empty());
  EXPECT_EQ(r["results"][0]["device_index"], 0);
}

TEST(DeviceReport, PublishedSchemaRefusesBrokenDeviceFields) {
  const json good = node_report(SyntheticNode{});
  expect_matches_published_schema(good);
  const auto broken = [&](const char* pointer, const json& value) {
    json r = good;
    r[json::json_pointer(pointer)] = value;
    return r;
  };
  expect_refused_by_published_schema(broken("/devices/0/uuid", "8f1b63c2"));
  expect_refused_by_published_schema(broken("/devices/1/pci_bus_id", "19:00"));
  expect_refused_by_published_schema(broken("/results/0/device_index", -1));
  expect_refused_by_published_schema(broken("/settings/devices", "0,,1"));
  expect_refused_by_published_schema(broken("/node_summary/0/devices/0/flag", "SLOW"));
  expect_refused_by_published_schema(broken("/devices", json::array()));  // device is not null
  json no_devices = good;
  no_devices.erase("devices");
  expect_refused_by_published_schema(no_devices);  // required in 1.3
  json older = good;
  older.erase("devices");
  older["schema_version"] = "1.2.0";
  for (const char* key : {"hosts", "node_summary", "merged_from"}) older.erase(key);
  for (json& result : older["results"]) {
    result.erase("device_index");
    result.erase("host_index");
  }
  older["settings"].erase("devices");
  older["settings"].erase("devices_parallel");
  expect_matches_published_schema(older);  // the (1.3) fields are not asked of a 1.2 report
}

}  // namespace
}  // namespace mish
