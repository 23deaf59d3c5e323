// The report carries the timing fields of schema 1.1: CI, outliers, stopping, clocks, graph
// timing, stage breakdown with GB/s against the copy bandwidth, roofline fractions; and the tool
// writes them end to end on the host backend with adaptive stopping.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "core/backend/backend.h"
#include "core/timing/peaks.h"
#include "report_schema_check.h"
#include "reports/report/report.h"
#include "reports/report/schema.h"

namespace mish {
namespace {

using nlohmann::json;

TimedSeries series_of(std::vector<double> samples, std::vector<std::optional<ClockReading>> clocks) {
  Sampling sampling;
  sampling.samples_ms = std::move(samples);
  sampling.clocks = std::move(clocks);
  sampling.stopped_by = StopReason::converged;
  return make_series(std::move(sampling), true);
}

RunOutcome synthetic_outcome() {
  RunOutcome outcome;
  DeviceInfo device;
  device.name = "NVIDIA H200";
  device.uuid = "GPU-8f1b63c2-0001-abcd-ef10-2030405060ff";
  device.pci_bus_id = "0000:19:00.0";
  device.l2_bytes = 60 << 20;
  outcome.devices = {{device, CopyBandwidth{256 << 20, 0.125, 4000.0},
                      ReadBandwidth{uint64_t(1) << 30, 0.25, 4294.967296}, 1980u, ""}};
  ProblemRun run;
  BackendResult r;
  r.backend = "fused";
  r.math_mode = "fp32";
  ClockReading calm{1980, 0, 50u, 400.0};
  ClockReading capped{1700, 0x4, 60u, 700.0};  // sw_power_cap
  // Median 2.005, MAD 0.01: 2.6 lies beyond 3.5 x 1.4826 x MAD.
  static_cast<TimedSeries&>(r) = series_of({2.0, 2.01, 2.6, 1.99, 2.0, 2.02},
                                           {calm, calm, capped, calm, calm, std::nullopt});
  r.graph = series_of({1.9, 1.9, 1.9, 1.9, 1.9, 1.9}, {});
  r.graph_nodes = 2;
  r.stages.push_back({"gemm", StageKind::gemm, 0.0, series_of({1.95, 1.95, 1.95}, {})});
  r.stages.push_back(
      {"epilogue", StageKind::epilogue, epilogue_bytes(run.problem, true), series_of({0.02, 0.02, 0.02}, {})});
  run.results.push_back(r);
  outcome.runs.push_back(run);
  return outcome;
}

TEST(ReportTiming, CarriesTheNewFields) {
  RunConfig config;
  config.graph = true;
  config.sampling.max_noise = 0.01;
  const json report = build_report(synthetic_outcome(), config, {"mishbench"});
  EXPECT_EQ(report["schema_version"], kSchemaVersion);
  EXPECT_TRUE(check_report(report).ok());
  expect_matches_published_schema(report);

  EXPECT_EQ(report["settings"]["stopping"], "adaptive");
  EXPECT_EQ(report["settings"]["max_noise"], 0.01);
  EXPECT_EQ(report["settings"]["l2"], "flush");
  EXPECT_EQ(report["settings"]["l2_flush_bytes"], 2 * (60 << 20));
  EXPECT_EQ(report["settings"]["graph"], true);
  EXPECT_EQ(report["device"]["read_bandwidth"]["gb_per_s"], 4294.967296);
  // Floors: the layer's bytes at the read bandwidth, the math mode's passes at the peak.
  const json& problem = report["problems"][0];
  EXPECT_NEAR(problem["memory_floor_ms"].get<double>(),
              problem["bytes"].get<double>() / 4294.967296e9 * 1e3, 1e-12);
  EXPECT_EQ(report["device"]["copy_bandwidth"]["gb_per_s"], 4000.0);
  EXPECT_EQ(report["device"]["max_sm_clock_mhz"], 1980);

  const json& r = report["results"][0];
  const json& t = r["timing"];
  EXPECT_EQ(t["samples_ms"].size(), 6u);
  EXPECT_DOUBLE_EQ(t["median_ms"].get<double>(), 2.005);
  EXPECT_EQ(t["outliers"], 1);
  EXPECT_EQ(t["stopped_by"], "converged");
  EXPECT_EQ(t["median_ci95_ms"].size(), 2u);
  EXPECT_EQ(r["clocks"]["readings"], 5);
  EXPECT_EQ(r["clocks"]["sm_mhz_min"], 1700);
  EXPECT_EQ(r["clocks"]["sm_mhz_max"], 1980);
  EXPECT_EQ(r["clocks"]["throttled_samples"], 1);
  EXPECT_EQ(r["clocks"]["throttled_sample_indices"], json::array({2}));
  EXPECT_EQ(r["clocks"]["throttle_reasons"], json::array({"sw_power_cap"}));
  EXPECT_EQ(r["clocks"]["power_w_max"], 700.0);

  EXPECT_EQ(r["graph_timing"]["median_ms"], 1.9);
  EXPECT_EQ(r["graph_nodes"], 2);
  const double flops = 2.0 * 1024 * 8192 * 8192;
  EXPECT_NEAR(r["graph_tflops"].get<double>(), flops / 1.9e-3 / 1e12, 1e-9);

  const json& stages = r["stages"]["stages"];
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stages[0]["kind"], "gemm");
  EXPECT_NEAR(stages[0]["tflops"].get<double>(), flops / 1.95e-3 / 1e12, 1e-9);
  const double bytes = 8.0 * 1024 * 8192 + 4.0 * 8192;
  EXPECT_EQ(stages[1]["bytes"], bytes);
  EXPECT_NEAR(stages[1]["gb_per_s"].get<double>(), bytes / 0.02e-3 / 1e9, 1e-6);
  EXPECT_NEAR(stages[1]["fraction_of_copy_bandwidth"].get<double>(), bytes / 0.02e-3 / 1e9 / 4000.0,
              1e-9);
  EXPECT_NEAR(r["stages"]["sum_of_medians_ms"].get<double>(), 1.97, 1e-12);

  EXPECT_EQ(r["roofline"]["unit"], "fp32");
  EXPECT_EQ(r["roofline"]["peak_tflops"], 67.0);
  EXPECT_NEAR(r["roofline"]["fraction"].get<double>(), flops / 2.005e-3 / 1e12 / 67.0, 1e-12);
  ASSERT_TRUE(r["warnings"].is_array());
}

TEST(Peaks, MathModesMapToTheirHardwareUnit) {
  EXPECT_EQ(peak_tflops("NVIDIA H200", "fp32").tflops, 67.0);
  EXPECT_EQ(peak_tflops("NVIDIA H200", "tf32").tflops, 495.0);
  EXPECT_EQ(peak_tflops("NVIDIA H200", "3xtf32").tflops, 495.0);
  EXPECT_EQ(peak_tflops("NVIDIA H100 80GB HBM3", "bf16").tflops, 990.0);
  EXPECT_EQ(peak_tflops("NVIDIA H200", "fp16x3").tflops, 990.0);
  const PeakLookup unknown_device = peak_tflops("Some Future GPU", "fp32");
  EXPECT_FALSE(unknown_device.tflops);
  EXPECT_NE(unknown_device.note.find("Some Future GPU"), std::string::npos);
  EXPECT_FALSE(peak_tflops("NVIDIA H200", "int8").tflops);
}

TEST(ReportTiming, UnknownDeviceGivesNullFractionWithANote) {
  RunOutcome outcome = synthetic_outcome();
  outcome.devices[0].info.name = "Some Future GPU";
  const json report = build_report(outcome, RunConfig{}, {"mishbench"});
  expect_matches_published_schema(report);
  const json& r = report["results"][0];
  EXPECT_TRUE(r["roofline"]["fraction"].is_null());
  EXPECT_FALSE(r["roofline"]["note"].get<std::string>().empty());
}

TEST(ReportTiming, HostRunWithAdaptiveStoppingWritesTheFields) {
  const std::string path = ::testing::TempDir() + "timing_report.json";
  const std::string command = std::string(MISHBENCH_BINARY) +
                              " --backend=cpu --m 32 --n 64 --k 128 --iters 8 --max-noise 0.5"
                              " --timeout 5 --quiet --json " + path + " > /dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::ifstream file(path);
  const json report = json::parse(file);
  expect_matches_published_schema(report);
  EXPECT_EQ(report["settings"]["stopping"], "adaptive");
  EXPECT_EQ(report["settings"]["timeout_s"], 5.0);
  const json& r = report["results"][0];
  EXPECT_GE(r["timing"]["count"].get<int>(), 8);
  const std::string stopped = r["timing"]["stopped_by"];
  EXPECT_TRUE(stopped == "converged" || stopped == "timeout") << stopped;
  EXPECT_TRUE(r["graph_timing"].is_null());  // host backends are never graph-captured
  EXPECT_TRUE(r["stages"].is_null());
  EXPECT_TRUE(r["clocks"].is_null());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace mish
