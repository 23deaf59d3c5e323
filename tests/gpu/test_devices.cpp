// --devices on the machine at hand, run as a user runs mishbench: `--devices 0` and `--devices
// all` write reports of the same format (on a machine with one GPU, the same run); every device
// is named by its UUID and PCI bus id; an index the machine does not have exits 2 naming the
// device count; and, on a machine with two or more GPUs, every device verifies with its backends
// in worker processes, one after another and at the same time, and the node summary is written.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "../cpu/mishbench_process.h"
#include "../cpu/report_schema_check.h"
#include "gpu_test_support.h"
#include "reports/report/schema.h"

namespace mish {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A small problem, a GPU backend and the host backend, a few samples.
const std::vector<std::string> kQuickRun = {"--backend=fused,cpu",
                                            "--m",
                                            "128",
                                            "--n",
                                            "256",
                                            "--k",
                                            "512",
                                            "--iters",
                                            "5",
                                            "--warmup",
                                            "1"};

class Devices : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          fmt::format("mish_devices_{}_{}", ::getpid(),
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  // Runs mishbench with kQuickRun, `extra` and --json; returns the report (null on failure).
  json run(const std::vector<std::string>& extra, ProcessResult* result = nullptr) {
    std::vector<std::string> args = kQuickRun;
    args.insert(args.end(), extra.begin(), extra.end());
    const std::string path = (dir / "report.json").string();
    args.insert(args.end(), {"--json", path, "--quiet"});
    const ProcessResult done = run_mishbench(args, dir.string(), ProcessOptions{600, {}, {}});
    if (result != nullptr) *result = done;
    EXPECT_EQ(done.exit_code, 0) << fmt::format("{}", fmt::join(extra, " ")) << ": " << done.err;
    if (done.exit_code != 0) return nullptr;
    std::ifstream file(path);
    return json::parse(file);
  }

  fs::path dir;
};

// The keys of every object, recursively, arrays of objects by their first one: the report's
// format (a list of warnings or samples may be longer in one run than in another).
json format_of(const json& value) {
  if (value.is_object()) {
    json keys = json::object();
    for (const auto& item : value.items()) keys[item.key()] = format_of(item.value());
    return keys;
  }
  if (value.is_array() && !value.empty() && value[0].is_object())
    return json::array({format_of(value[0])});
  return value.type_name();
}

// The report's format with what the machine decides left out: the other processes seen on the
// GPU (a test run just before may still be exiting) are listed in one run and not in the next.
json format_without_environment(json report) {
  for (json& result : report["results"])
    if (result.contains("honesty") && result["honesty"].is_object())
      result["honesty"]["other_processes"] = json::array();
  return format_of(report);
}

void expect_named_devices(const json& report) {
  const std::regex uuid("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  const std::regex pci("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.0");
  std::set<std::string> uuids;
  for (const json& device : report["devices"]) {
    EXPECT_TRUE(std::regex_match(device["uuid"].get<std::string>(), uuid)) << device["uuid"];
    EXPECT_TRUE(std::regex_match(device["pci_bus_id"].get<std::string>(), pci))
        << device["pci_bus_id"];
    uuids.insert(device["uuid"].get<std::string>());
  }
  EXPECT_EQ(uuids.size(), report["devices"].size()) << "every device has a UUID of its own";
}

TEST_F(Devices, OneAndAllWriteTheSameFormat) {
  MISH_REQUIRE_GPU();
  const int visible = visible_device_count();
  const json one = run({"--devices", "0"});
  const json all = run({"--devices", "all"});
  ASSERT_FALSE(one.is_null());
  ASSERT_FALSE(all.is_null());
  for (const json* report : {&one, &all}) {
    EXPECT_TRUE(check_report(*report).ok());
    expect_matches_published_schema(*report);
    expect_named_devices(*report);
  }
  EXPECT_EQ(one["settings"]["devices"], "0");
  EXPECT_EQ(all["settings"]["devices"], "all");
  ASSERT_EQ(one["devices"].size(), 1u);
  ASSERT_EQ(all["devices"].size(), static_cast<size_t>(visible));
  EXPECT_EQ(one["results"][0]["device_index"], 0);
  EXPECT_TRUE(one["results"][0]["isolation"].is_null());     // one device: in the tool's process
  EXPECT_TRUE(one["results"][1]["device_index"].is_null());  // cpu
  if (visible == 1) {
    EXPECT_EQ(one["devices"][0]["uuid"], all["devices"][0]["uuid"]);
    EXPECT_EQ(format_without_environment(one), format_without_environment(all));
    EXPECT_EQ(one["results"].size(), all["results"].size());
  }
  for (const json& r : all["results"]) EXPECT_EQ(r["status"], "ok") << r["backend"] << r["reason"];
}

TEST_F(Devices, AnIndexTheMachineLacksExitsTwoWithTheCount) {
  MISH_REQUIRE_GPU();
  const int visible = visible_device_count();
  std::vector<std::string> args = kQuickRun;
  args.insert(args.end(), {"--devices", std::to_string(visible)});
  const ProcessResult done = run_mishbench(args, dir.string());
  EXPECT_EQ(done.exit_code, 2) << done.err;
  EXPECT_NE(done.err.find(fmt::format("there is no CUDA device {}; this machine has {} CUDA "
                                      "device",
                                      visible, visible)),
            std::string::npos)
      << done.err;
}

TEST_F(Devices, ParallelWithOneDeviceRunsAsUsual) {
  MISH_REQUIRE_GPU();
  const json report = run({"--devices", "0", "--devices-parallel"});
  ASSERT_FALSE(report.is_null());
  EXPECT_EQ(report["settings"]["devices_parallel"], false);  // nothing ran at the same time
  EXPECT_TRUE(report["node_summary"].empty());
}

TEST_F(Devices, SeveralDevicesVerifyInBothPlacements) {
  MISH_REQUIRE_GPU();
  const int visible = visible_device_count();
  if (visible < 2) GTEST_SKIP() << "one CUDA device: the several-device run needs two or more";
  for (const bool parallel : {false, true}) {
    std::vector<std::string> extra = {"--devices", "all"};
    if (parallel) extra.push_back("--devices-parallel");
    ProcessResult done;
    const json report = run(extra, &done);
    ASSERT_FALSE(report.is_null());
    expect_matches_published_schema(report);
    expect_named_devices(report);
    EXPECT_EQ(report["settings"]["devices_parallel"], parallel);
    ASSERT_EQ(report["devices"].size(), static_cast<size_t>(visible));
    std::set<int> seen;
    for (const json& r : report["results"]) {
      EXPECT_EQ(r["status"], "ok") << r["backend"] << ": " << r["reason"];
      if (r["backend"] != "fused") continue;
      seen.insert(r["device_index"].get<int>());
      EXPECT_FALSE(r["isolation"].is_null()) << "a device backend of several devices is a worker's";
    }
    EXPECT_EQ(seen.size(), static_cast<size_t>(visible));
    ASSERT_EQ(report["node_summary"].size(), 1u);
    EXPECT_EQ(report["node_summary"][0]["devices"].size(), static_cast<size_t>(visible));
    EXPECT_NE(done.out.find("node summary"), std::string::npos) << done.out;
  }
}

}  // namespace
}  // namespace mish
