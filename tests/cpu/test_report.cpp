// The JSON report: what build_report writes survives dump and parse with every field intact and
// passes the schema check and the published JSON Schema; both reject malformed documents and
// versions they cannot read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/common/errors.h"
#include "report_schema_check.h"
#include "reports/report/report.h"
#include "reports/report/schema.h"

namespace mish {
namespace {

using nlohmann::json;

BackendResult timed_result(const std::string& backend, std::vector<double> samples) {
  BackendResult r;
  r.backend = backend;
  r.math_mode = "fp32";
  r.details = {{"gemm", "test"}};
  r.setup_ms = 1.5;
  r.samples_ms = std::move(samples);
  r.stats = summarize(r.samples_ms);
  Verification v;
  v.checked = 12;
  v.max_abs = 3e-6;
  v.max_rel = 2e-6;
  v.worst = {2, 1, 0.25f, 0.2500031};
  r.verification = v;
  return r;
}

RunOutcome synthetic_outcome() {
  RunOutcome outcome;
  outcome.host = {"testhost", "Test CPU", 8, "Linux 6.1 x86_64"};
  DeviceInfo device;
  device.name = "Test GPU";
  device.uuid = "GPU-8f1b63c2-0001-abcd-ef10-2030405060ff";
  device.pci_bus_id = "0000:19:00.0";
  device.cc_major = 9, device.cc_minor = 0;
  device.sms = 132;
  device.l2_bytes = 60u << 20;
  device.memory_bytes = size_t(140) << 30;
  device.driver_version = 13000, device.runtime_version = 13000, device.cublas_version = 130100;
  // The bandwidths are measured with every device.
  outcome.devices = {{device, CopyBandwidth{256 << 20, 0.125, 4000.0},
                      ReadBandwidth{uint64_t(1) << 30, 0.25, 4294.967296}, std::nullopt, ""}};

  ProblemRun run;
  run.problem.m = 3, run.problem.n = 4, run.problem.k = 5, run.problem.seed = 9;
  run.problem.distribution = Distribution::wide;
  run.generate_ms = 0.1;
  run.reference_ms = 0.2;
  run.results.push_back(timed_result("separate", {2.0, 2.2, 1.8}));
  run.results.push_back(timed_result("fused", {1.0, 1.1, 0.9, 1.0}));
  BackendResult skipped;
  skipped.backend = "naive";
  skipped.status = Status::skipped;
  skipped.reason = "too large";
  skipped.math_mode = "fp32";
  run.results.push_back(skipped);
  BackendResult mismatch = timed_result("cublaslt", {1.0});
  mismatch.status = Status::mismatch;
  mismatch.reason = "1 of 12 elements outside";
  mismatch.verification->mismatches = 1;
  mismatch.verification->nonfinite = 1;
  run.results.push_back(mismatch);
  outcome.runs.push_back(run);
  return outcome;
}

json round_tripped_report() {
  RunConfig config;
  config.sampling.iters = 3;
  config.sampling.warmup = 1;
  config.execution.l2 = L2Mode::hot;
  config.tolerance.atol = 2e-4;
  const json report = build_report(synthetic_outcome(), config, {"mishbench", "--iters=3"});
  return json::parse(report.dump(2));
}

// A plugin's origin says how the library was built (1.5); no other origin has the field.
TEST(Report, APluginsOriginSaysHowItWasBuilt) {
  RunOutcome outcome = synthetic_outcome();
  const std::string info = "build type: Release; CXX flags: -O3 -DNDEBUG";
  outcome.runs[0].results[1].origin = {"plugin", "/opt/libmine.so", std::string(64, 'a'), 1, info};
  const json r = json::parse(build_report(outcome, RunConfig{}, {"mishbench"}).dump());
  EXPECT_EQ(r["results"][1]["origin"]["build_info"], info);
  EXPECT_FALSE(r["results"][0]["origin"].contains("build_info"));
  expect_matches_published_schema(r);
  json broken = r;
  broken["results"][1]["origin"]["build_info"] = "-O3\n";
  expect_refused_by_published_schema(broken);
}

TEST(Report, RoundTripPassesSchemaAndKeepsFields) {
  const json r = round_tripped_report();
  const SchemaCheck check = check_report(r);
  EXPECT_TRUE(check.ok()) << (check.errors.empty() ? "" : check.errors.front());
  EXPECT_TRUE(check.warnings.empty());
  expect_matches_published_schema(r);

  EXPECT_EQ(r["schema_version"], kSchemaVersion);
  EXPECT_EQ(r["tool"]["name"], "mishbench");
  EXPECT_EQ(r["argv"], json({"mishbench", "--iters=3"}));
  EXPECT_EQ(r["host"]["hostname"], "testhost");
  EXPECT_EQ(r["host"]["cores"], 8);
  EXPECT_EQ(r["device"]["name"], "Test GPU");
  EXPECT_EQ(r["device"]["cc"], "9.0");
  EXPECT_EQ(r["device"]["cublas"], "13.1.0");
  EXPECT_EQ(r["settings"]["iters"], 3);
  EXPECT_EQ(r["settings"]["warmup"], 1);
  EXPECT_EQ(r["settings"]["l2"], "hot");
  EXPECT_EQ(r["settings"]["atol"], 2e-4);

  ASSERT_EQ(r["problems"].size(), 1u);
  const json& problem = r["problems"][0];
  EXPECT_EQ(problem["m"], 3);
  EXPECT_EQ(problem["n"], 4);
  EXPECT_EQ(problem["k"], 5);
  EXPECT_EQ(problem["seed"], 9);
  EXPECT_EQ(problem["distribution"], "wide");
  EXPECT_EQ(problem["flops"], 120.0);
  EXPECT_EQ(problem["reference_ms"], 0.2);

  ASSERT_EQ(r["results"].size(), 4u);
  const json& fused = r["results"][1];
  EXPECT_EQ(fused["backend"], "fused");
  EXPECT_EQ(fused["status"], "ok");
  EXPECT_EQ(fused["problem"]["m"], 3);
  EXPECT_EQ(fused["details"]["gemm"], "test");
  EXPECT_EQ(fused["timing"]["samples_ms"], json({1.0, 1.1, 0.9, 1.0}));
  EXPECT_DOUBLE_EQ(fused["timing"]["median_ms"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(fused["timing"]["min_ms"].get<double>(), 0.9);
  EXPECT_DOUBLE_EQ(fused["timing"]["max_ms"].get<double>(), 1.1);
  EXPECT_DOUBLE_EQ(fused["tflops"].get<double>(), 120.0 / 1e-3 / 1e12);
  EXPECT_DOUBLE_EQ(fused["speedup_vs_separate"].get<double>(), 2.0);
  EXPECT_EQ(fused["verification"]["checked"], 12);
  EXPECT_EQ(fused["verification"]["max_abs"], 3e-6);
  EXPECT_EQ(fused["verification"]["worst"]["row"], 2);
  EXPECT_EQ(fused["verification"]["worst"]["col"], 1);
  EXPECT_EQ(fused["verification"]["worst"]["expected"], 0.2500031);

  const json& skipped = r["results"][2];
  EXPECT_EQ(skipped["status"], "skipped");
  EXPECT_EQ(skipped["reason"], "too large");
  EXPECT_TRUE(skipped["timing"].is_null());
  EXPECT_TRUE(skipped["tflops"].is_null());
  EXPECT_TRUE(skipped["verification"].is_null());

  const json& mismatch = r["results"][3];
  EXPECT_EQ(mismatch["status"], "mismatch");
  EXPECT_EQ(mismatch["verification"]["mismatches"], 1);
  EXPECT_EQ(mismatch["verification"]["nonfinite"], 1);
}

TEST(Report, HostOnlyRunHasNullDevice) {
  RunOutcome outcome = synthetic_outcome();
  outcome.devices.clear();
  const json r = build_report(outcome, RunConfig{}, {"mishbench"});
  EXPECT_TRUE(r["device"].is_null());
  EXPECT_TRUE(check_report(r).ok());
  expect_matches_published_schema(r);
}

// Each case breaks one thing in a valid report; the check must name it.
struct Breakage {
  const char* name;
  json::json_pointer where;
  json replacement;  // null: remove the key
  const char* error_mentions;
};

class SchemaRejects : public ::testing::TestWithParam<Breakage> {};

TEST_P(SchemaRejects, MalformedReport) {
  json r = round_tripped_report();
  const Breakage& b = GetParam();
  if (b.replacement.is_null())
    r[b.where.parent_pointer()].erase(b.where.back());
  else
    r[b.where] = b.replacement;
  const SchemaCheck check = check_report(r);
  ASSERT_FALSE(check.ok());
  bool named = false;
  for (const std::string& error : check.errors) named |= error.find(b.error_mentions) != std::string::npos;
  EXPECT_TRUE(named) << "first error: " << check.errors.front();
  expect_refused_by_published_schema(r);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SchemaRejects,
    ::testing::Values(
        Breakage{"missing_results", json::json_pointer("/results"), nullptr, "results"},
        Breakage{"missing_schema_version", json::json_pointer("/schema_version"), nullptr,
                 "schema_version"},
        Breakage{"missing_status", json::json_pointer("/results/0/status"), nullptr, "status"},
        Breakage{"missing_median", json::json_pointer("/results/1/timing/median_ms"), nullptr,
                 "median_ms"},
        Breakage{"argv_not_array", json::json_pointer("/argv"), "mishbench", "argv"},
        Breakage{"median_is_string", json::json_pointer("/results/0/timing/median_ms"), "2.0",
                 "median_ms"},
        Breakage{"unknown_status", json::json_pointer("/results/0/status"), "fine", "status"},
        Breakage{"empty_samples", json::json_pointer("/results/0/timing/samples_ms"),
                 json::array(), "samples_ms"},
        Breakage{"mismatches_not_integer",
                 json::json_pointer("/results/0/verification/mismatches"), 0.5, "mismatches"},
        Breakage{"seed_not_integer", json::json_pointer("/results/0/problem/seed"), "42", "seed"},
        Breakage{"newer_major", json::json_pointer("/schema_version"), "2.0.0", "2.0.0"},
        Breakage{"version_not_string", json::json_pointer("/schema_version"), 1, "schema_version"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Schema, RejectsNonObject) {
  EXPECT_FALSE(check_report(json::array()).ok());
  EXPECT_FALSE(check_report(json("report")).ok());
}

TEST(Schema, WarnsOnNewerMinorVersion) {
  json r = round_tripped_report();
  r["schema_version"] = "1.7.0";
  const SchemaCheck check = check_report(r);
  EXPECT_TRUE(check.ok());
  ASSERT_EQ(check.warnings.size(), 1u);
  EXPECT_NE(check.warnings[0].find("1.7.0"), std::string::npos);
}

TEST(Report, WriteReplacesAtomicallyAndLeavesNoTemporary) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mish_report_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "report.json").string();
  { std::ofstream(path) << "old"; }
  const json r = round_tripped_report();
  write_json_atomically(path, r);
  std::ifstream in(path);
  EXPECT_EQ(json::parse(in), r);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  std::filesystem::remove_all(dir);
}

TEST(Report, WriteIntoMissingFolderThrowsUsageError) {
  const std::string path = (std::filesystem::temp_directory_path() / "mish_no_such_folder" / "r.json").string();
  EXPECT_THROW(write_json_atomically(path, json::object()), UsageError);
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(path).parent_path()));
}

}  // namespace
}  // namespace mish
