// --devices: the strict parsing of the list, its config-file forms, its resolution against the
// machine's device count (an unknown index is refused with the count), the device identities the
// report prints (UUID, PCI bus id), and the command line's refusals.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/common/errors.h"
#include "base/env/environment.h"
#include "mishbench_process.h"
#include "settings/device_selection.h"
#include "settings/run_config.h"
#include "settings/settings.h"
#include "thrown.h"

namespace mish {
namespace {

using nlohmann::json;

DeviceSelection parse(const std::string& text) { return parse_device_selection(text, "--devices"); }

std::string refusal(const std::string& text) {
  return thrown<UsageError>([&] { parse(text); });
}

TEST(DeviceSelection, ReadsIndicesInTheOrderGivenAndAllAlone) {
  EXPECT_EQ(parse("0").indices, std::vector<int>{0});
  EXPECT_EQ(parse("3,1,2").indices, (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(parse("007").indices, std::vector<int>{7});  // leading zeros are decimal
  EXPECT_FALSE(parse("0,1").all);
  EXPECT_TRUE(parse("all").all);
  EXPECT_EQ(to_string(parse("all")), "all");
  EXPECT_EQ(to_string(parse("2,0")), "2,0");
  EXPECT_EQ(to_string(DeviceSelection{}), "0");  // the default: device 0, as before
}

struct Refused {
  const char* text;
  const char* says;
};

class DeviceSelectionRefuses : public ::testing::TestWithParam<Refused> {};

TEST_P(DeviceSelectionRefuses, WithAMessageNamingTheFlag) {
  const std::string message = refusal(GetParam().text);
  EXPECT_NE(message.find("--devices"), std::string::npos) << message;
  EXPECT_NE(message.find(GetParam().says), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    BadLists, DeviceSelectionRefuses,
    ::testing::Values(
        Refused{"", "empty entry"}, Refused{"0,,1", "empty entry"}, Refused{"0,", "empty entry"},
        Refused{",0", "empty entry"}, Refused{"1,1", "lists device 1 twice"},
        Refused{"1,01", "lists device 1 twice"}, Refused{"all,1", "'all' stands alone"},
        Refused{"0,all", "'all' stands alone"}, Refused{"ALL", "not a decimal integer"},
        Refused{"-1", "out of range"}, Refused{"+1", "not a decimal integer"},
        Refused{" 1", "not a decimal integer"}, Refused{"1 ,2", "not a decimal integer"},
        Refused{"0x1", "not a decimal integer"}, Refused{"1.0", "not a decimal integer"},
        Refused{"gpu0", "not a decimal integer"}, Refused{"1024", "out of range"},
        Refused{"99999999999999999999", "out of range"}),
    [](const ::testing::TestParamInfo<Refused>& info) {
      return "case" + std::to_string(info.index);
    });

TEST(DeviceSelection, ResolvesAgainstTheDeviceCount) {
  EXPECT_EQ(resolve_devices(parse("all"), 1), std::vector<int>{0});
  EXPECT_EQ(resolve_devices(parse("all"), 4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(resolve_devices(parse("3,0"), 4), (std::vector<int>{3, 0}));
  const std::string one = thrown<UsageError>([] { resolve_devices(parse("1"), 1); });
  EXPECT_NE(one.find("there is no CUDA device 1; this machine has 1 CUDA device (index 0)"),
            std::string::npos)
      << one;
  const std::string eight = thrown<UsageError>([] { resolve_devices(parse("0,8"), 8); });
  EXPECT_NE(eight.find("no CUDA device 8; this machine has 8 CUDA devices (indices 0 to 7)"),
            std::string::npos)
      << eight;
}

TEST(DeviceSelection, ConfigFileTakesAStringOrAnArrayOfIndices) {
  RunConfig config;
  apply_config_json(json{{"devices", "1,0"}, {"devices_parallel", true}}, "c.json", config);
  EXPECT_EQ(config.devices.indices, (std::vector<int>{1, 0}));
  EXPECT_TRUE(config.devices_parallel);
  apply_config_json(json{{"devices", json::array({2, 3})}}, "c.json", config);
  EXPECT_EQ(config.devices.indices, (std::vector<int>{2, 3}));
  apply_config_json(json{{"devices", "all"}}, "c.json", config);
  EXPECT_TRUE(config.devices.all);
  for (const json& bad :
       {json::array({0, 0}), json::array({-1}), json::array({1.5}), json::array({"0"}),
        json::array(), json(3), json(true), json::array({uint64_t(1) << 63})}) {
    RunConfig other;
    const std::string message = thrown<UsageError>([&] {
      apply_config_json(json{{"devices", bad}}, "c.json", other);
    });
    EXPECT_NE(message.find("c.json: 'devices'"), std::string::npos)
        << bad.dump() << ": " << message;
  }
}

TEST(DeviceSelection, TheReportShowsTheSelectionAsGiven) {
  RunConfig config;
  EXPECT_EQ(settings_json(config)["devices"], "0");
  EXPECT_EQ(settings_json(config)["devices_parallel"], false);
  config.devices = parse("all");
  EXPECT_EQ(settings_json(config)["devices"], "all");
}

TEST(DeviceIdentity, UuidAndPciBusIdReadAsNvidiaSmiPrintsThem) {
  const unsigned char bytes[16] = {0x8f, 0x1b, 0x63, 0xc2, 0x00, 0x01, 0xab, 0xcd,
                                   0xef, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0xff};
  EXPECT_EQ(format_gpu_uuid(bytes), "GPU-8f1b63c2-0001-abcd-ef10-2030405060ff");
  EXPECT_EQ(format_pci_bus_id(0, 0x19, 0), "0000:19:00.0");
  EXPECT_EQ(format_pci_bus_id(1, 0xcb, 0x1f), "0001:cb:1f.0");
}

// A folder of the test's own for run_mishbench's captured output (tests run in parallel),
// removed with it.
struct ScratchFolder {
  std::filesystem::path path =
      std::filesystem::path(::testing::TempDir()) /
      ("mish_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
  ScratchFolder() { std::filesystem::create_directories(path); }
  ~ScratchFolder() { std::filesystem::remove_all(path); }
};

TEST(DeviceSelection, CommandLineRefusesABadListBeforeAnyWork) {
  const ScratchFolder folder;
  const std::string scratch = folder.path.string();
  for (const char* list : {"1,1", "all,0", "x", ""}) {
    const ProcessResult run = run_mishbench({"--backend=cpu", "--devices", list}, scratch);
    EXPECT_EQ(run.exit_code, 2) << list << ": " << run.err;
    EXPECT_NE(run.err.find("--devices"), std::string::npos) << run.err;
  }
}

TEST(DeviceSelection, WithoutADeviceAGpuBackendExitsThreeWhateverTheList) {
  if (visible_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  const ScratchFolder folder;
  const std::string scratch = folder.path.string();
  for (const char* list : {"0", "3", "all", "0,1"}) {
    const ProcessResult run = run_mishbench({"--backend=fused", "--devices", list}, scratch);
    EXPECT_EQ(run.exit_code, 3) << list << ": " << run.err;
    EXPECT_NE(run.err.find("no CUDA device"), std::string::npos) << run.err;
  }
}

// Only device backends and no device: nothing would read the inputs or the reference, so they are
// not computed (seconds at the default problem); with a host backend beside them they are.
TEST(DeviceSelection, WithoutADeviceNothingIsComputedForBackendsThatCannotRun) {
  if (visible_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  const ScratchFolder folder;
  const std::string scratch = folder.path.string();
  const std::string report = (folder.path / "r.json").string();
  const ProcessResult alone = run_mishbench({"--backend=fused", "--json", report}, scratch);
  EXPECT_EQ(alone.exit_code, 3) << alone.err;
  EXPECT_NE(alone.err.find("no backend can run here; inputs and reference not computed"),
            std::string::npos)
      << alone.err;
  EXPECT_NE(alone.out.find("(kernelbench, seed 42), reference not computed"), std::string::npos)
      << alone.out;
  const nlohmann::json skipped = nlohmann::json::parse(std::ifstream(report));
  EXPECT_EQ(skipped["results"][0]["status"], "skipped");
  EXPECT_EQ(skipped["problems"][0]["reference_ms"], 0.0);

  const ProcessResult beside = run_mishbench(
      {"--backend=cpu,fused", "--m", "8", "--n", "64", "--k", "64", "--json", report}, scratch);
  EXPECT_EQ(beside.exit_code, 3) << beside.err;
  EXPECT_EQ(beside.err.find("not computed"), std::string::npos) << beside.err;
  const nlohmann::json ran = nlohmann::json::parse(std::ifstream(report));
  EXPECT_GT(ran["problems"][0]["reference_ms"].get<double>(), 0.0);
}

}  // namespace
}  // namespace mish
