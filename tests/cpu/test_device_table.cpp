// The console output of a run on several devices: the table grouped under a heading per device
// (name, UUID, PCI bus id) and one for the host, each device's bandwidths, and the node summary
// with the slow card flagged and its throttling beside it; a run on one device prints neither
// headings nor a summary.
#include <gtest/gtest.h>
#include <stdio.h>

#include <cstdlib>
#include <string>

#include "node_report_fixture.h"
#include "reports/report/table.h"

namespace mish {
namespace {

// What `print` writes to a FILE*.
template <typename Print>
std::string printed(Print print) {
  char* buffer = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&buffer, &size);
  print(out);
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

std::string console(const RunOutcome& outcome) {
  return printed([&](FILE* out) {
    print_table(out, outcome, Tolerance{});
    print_node_summary(out, outcome);
  });
}

TEST(DeviceTable, GroupsResultsByDeviceAndFlagsTheSlowOne) {
  SyntheticNode node;
  node.fused_ms = {2.7, 2.7 * 1.1, 2.7};
  RunOutcome outcome = node_outcome(node);
  ClockSummary throttled;
  throttled.readings = 100;
  throttled.throttled_samples = {0, 1, 2, 3};
  throttled.reasons_seen = 0x4;  // sw_power_cap
  outcome.runs[0].results[1].clocks = throttled;
  const std::string text = console(outcome);
  const size_t gpu0 = text.find("gpu 0: NVIDIA H200 (" + synthetic_uuid(0) + ", PCI 0000:19:00.0)");
  const size_t gpu1 = text.find("gpu 1: NVIDIA H200 (" + synthetic_uuid(1) + ", PCI 0000:29:00.0)");
  const size_t host = text.find("\nhost:\n");
  ASSERT_NE(gpu0, std::string::npos) << text;
  ASSERT_NE(gpu1, std::string::npos) << text;
  ASSERT_NE(host, std::string::npos) << text;
  EXPECT_LT(gpu0, gpu1);
  EXPECT_LT(gpu1, host);
  EXPECT_NE(text.find("cpu ", host), std::string::npos);  // cpu is listed under the host
  EXPECT_NE(text.find("gpu 2 device copy bandwidth 4000 GB/s"), std::string::npos) << text;
  EXPECT_NE(text.find("node summary (devices one after another)"), std::string::npos) << text;
  const size_t slow = text.find("SLOW");
  ASSERT_NE(slow, std::string::npos) << text;
  const std::string slow_line =
      text.substr(text.rfind('\n', slow) + 1, text.find('\n', slow) - text.rfind('\n', slow) - 1);
  EXPECT_NE(slow_line.find("gpu 1"), std::string::npos) << slow_line;
  EXPECT_NE(slow_line.find("throttled 4 of 100 samples (sw_power_cap)"), std::string::npos)
      << slow_line;
  EXPECT_EQ(text.find("SLOW", slow + 1), std::string::npos) << "only one device is slow";
  EXPECT_NE(text.find("1 device result outside the band"), std::string::npos) << text;
}

TEST(DeviceTable, OneDevicePrintsAsBefore) {
  SyntheticNode node;
  node.fused_ms = {2.7};
  const std::string text = console(node_outcome(node));
  EXPECT_EQ(text.find("gpu 0:"), std::string::npos) << text;
  EXPECT_EQ(text.find("host:"), std::string::npos) << text;
  EXPECT_EQ(text.find("node summary"), std::string::npos) << text;
  EXPECT_NE(text.find("\ndevice copy bandwidth 4000 GB/s (read + write), read 4295 GB/s, max SM "
                      "clock 1980 MHz\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nbackend    status"), std::string::npos) << text;
}

}  // namespace
}  // namespace mish
