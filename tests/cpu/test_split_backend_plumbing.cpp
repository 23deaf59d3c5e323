// The host side of the tensor-core backends: registration, accuracy classes, options, prepack
// settings, how expected reduced-precision mismatches are reported and scored, and the padded
// rows the split backends' GEMMs write when n is not a multiple of 8.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "backends/builtin/registry.h"
#include "base/common/errors.h"
#include "epilogue.cuh"
#include "report_schema_check.h"
#include "reports/report/report.h"
#include "reports/report/schema.h"
#include "reports/report/table.h"
#include "settings/run_config.h"
#include "settings/settings.h"
#include "split.cuh"

namespace mish {
namespace {

// A flag's value applied as the command line applies it.
void set_flag(RunConfig& config, const std::string& flag, const std::string& text) {
  const Setting& setting = *setting_for_flag(flag);
  apply_setting(setting, parse_flag_value(setting, text), flag, config);
}

std::unique_ptr<Backend> backend_named(const std::string& name) {
  return make_builtin_backend(name);
}

TEST(SplitBackends, RegisteredAfterCublasLtAndBeforeCpu) {
  const std::vector<std::string> names = backend_names(builtin_backends());
  const auto at = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) - names.begin();
  };
  EXPECT_EQ(at("tf32"), at("cublaslt") + 1);
  EXPECT_EQ(at("bf16"), at("tf32") + 1);
  EXPECT_EQ(at("3xtf32"), at("bf16") + 1);
  EXPECT_EQ(at("fp16x3"), at("3xtf32") + 1);
  EXPECT_LT(at("fp16x3"), at("cpu"));
}

// K' = 3K (rounded up) must fit cuBLAS's int leading dimension: k = 715 827 880 gives a K' just
// below 2^31 for 3xtf32, and k = 715 827 883 one just above for both split backends.
TEST(SplitBackends, ConcatenatedKMustFitAnIntLeadingDimension) {
  Problem fits;
  fits.k = 715827880;
  EXPECT_TRUE(backend_named("3xtf32")->supports(fits, nullptr).ok);
  for (const char* name : {"3xtf32", "fp16x3"}) {
    Problem wide;
    wide.k = 715827883;
    const Support support = backend_named(name)->supports(wide, nullptr);
    EXPECT_FALSE(support.ok) << name;
    EXPECT_NE(support.reason.find("k=715827883 makes the concatenated K' = "), std::string::npos)
        << name << ": " << support.reason;
    EXPECT_NE(support.reason.find("wider than cuBLAS's int leading dimension"), std::string::npos)
        << name << ": " << support.reason;
  }
}

TEST(SplitBackends, MathModeAccuracyClassAndPasses) {
  struct Expected {
    const char* name;
    Accuracy accuracy;
    int passes;
    bool prepacks;
  };
  for (const Expected& e : {Expected{"tf32", Accuracy::reduced, 1, false},
                            Expected{"bf16", Accuracy::reduced, 1, true},
                            Expected{"3xtf32", Accuracy::fp32, 3, true},
                            Expected{"fp16x3", Accuracy::fp32, 3, true}}) {
    const std::unique_ptr<Backend> backend = backend_named(e.name);
    EXPECT_EQ(backend->math_mode(), e.name);
    EXPECT_EQ(backend->expected_accuracy(), e.accuracy) << e.name;
    EXPECT_EQ(backend->describe().at("tensor_core_passes"), e.passes) << e.name;
    EXPECT_EQ(backend->prepacks_weights(), e.prepacks) << e.name;
  }
  for (const char* fp32_backend : {"naive", "separate", "fused", "cublaslt", "cpu"})
    EXPECT_EQ(backend_named(fp32_backend)->expected_accuracy(), Accuracy::fp32) << fp32_backend;
}

TEST(SplitBackends, Fp16x3ChunksOptionIsValidatedAndReported) {
  std::unique_ptr<Backend> fp16x3 = backend_named("fp16x3");
  fp16x3->configure({{"chunks", 4}});
  EXPECT_EQ(fp16x3->describe().at("chunks"), 4);
  EXPECT_THROW(fp16x3->configure({{"chunks", 0}}), UsageError);
  EXPECT_THROW(fp16x3->configure({{"chunks", 65}}), UsageError);
  EXPECT_THROW(fp16x3->configure({{"chunks", "four"}}), UsageError);
  EXPECT_THROW(fp16x3->configure({{"chunk", 4}}), UsageError);
  EXPECT_THROW(backend_named("tf32")->configure({{"chunks", 4}}), UsageError);
}

TEST(SplitBackends, BackendOptionsFromFlagsAndConfig) {
  RunConfig config;
  set_flag(config, "--backend-option", "fp16x3.chunks=6");
  EXPECT_EQ(config.backend_options["fp16x3"]["chunks"], 6);
  for (const char* malformed : {"fp16x3", "fp16x3.chunks", "chunks=4", ".chunks=4", "fp16x3.=4"})
    EXPECT_THROW(set_flag(config, "--backend-option", malformed), UsageError) << malformed;

  apply_config_json({{"include_prepack", true}, {"backend_options", {{"fp16x3", {{"chunks", 2}}}}}},
                    "test", config);
  EXPECT_TRUE(config.execution.include_prepack);
  EXPECT_EQ(config.backend_options["fp16x3"]["chunks"], 2);
  EXPECT_THROW(apply_config_json({{"include_prepack", "yes"}}, "test", config), UsageError);
  EXPECT_THROW(apply_config_json({{"backend_options", {{"fp16x3", 2}}}}, "test", config),
               UsageError);

  const BackendTable table = builtin_backends();
  EXPECT_THROW(check_backend_options(table, {{"nosuch", {{"chunks", 2}}}}), UsageError);
  // Checked against the whole table, whichever backends a run selects.
  EXPECT_THROW(check_backend_options(table, {{"fp16x3", {{"chunks", 0}}}}), UsageError);
  EXPECT_NO_THROW(check_backend_options(table, {{"fp16x3", {{"chunks", 2}}}}));
}

TEST(SplitBackends, OutputRowsArePaddedToWholeEightFloats) {
  for (int64_t n = 1; n <= 64; ++n) {
    const int64_t padded = padded_output_columns(n);
    EXPECT_EQ(padded % 8, 0) << n;
    EXPECT_GE(padded, n);
    EXPECT_LT(padded, n + 8) << n;
  }
  EXPECT_EQ(padded_output_columns(8192), 8192);  // the default problem writes y directly
  EXPECT_EQ(padded_output_columns(8190), 8192);
  EXPECT_EQ(padded_output_columns(4100), 4104);  // a multiple of 4 is not enough for fp16 GEMMs
}

// epilogue_launch only looks at the pointers' addresses, so host arrays stand in for device ones.
TEST(SplitBackends, EpilogueTakesTheFloat4PathOnlyFromUnpaddedRows) {
  alignas(16) static float y[4 * 12], bias[12], partials[2 * 4 * 12];
  EpilogueSource dense;
  dense.partials = partials;
  dense.partial_count = 2;
  dense.partial_stride = 4 * 8;
  EXPECT_EQ(epilogue_launch(y, dense, bias, 4, 8).vector_width, 4);
  dense.row_stride = 8;  // explicit, but no padding
  EXPECT_EQ(epilogue_launch(y, dense, bias, 4, 8).vector_width, 4);

  EpilogueSource padded = dense;
  padded.row_stride = 12;
  padded.partial_stride = 4 * 12;
  const EpilogueLaunch launch = epilogue_launch(y, padded, bias, 4, 8);
  EXPECT_EQ(launch.vector_width, 1);
  EXPECT_GE(uint64_t(launch.grid) * launch.block, 4u * 8u);  // one thread per element of y
}

BackendResult mismatching(const std::string& name, Accuracy accuracy) {
  BackendResult r;
  r.backend = name;
  r.status = Status::mismatch;
  r.expected_accuracy = accuracy;
  r.reason = "12 of 100 elements outside atol=0.0001 rtol=0.0001";
  Verification v;
  v.checked = 100, v.mismatches = 12, v.max_abs = 4.4e-4;
  r.verification = v;
  return r;
}

RunOutcome outcome_with(std::vector<BackendResult> results) {
  RunOutcome outcome;
  ProblemRun run;
  run.results = std::move(results);
  outcome.runs.push_back(std::move(run));
  return outcome;
}

TEST(SplitBackends, ReducedPrecisionMismatchDoesNotFailTheRun) {
  EXPECT_FALSE(outcome_with({mismatching("tf32", Accuracy::reduced)}).any_failure());
  EXPECT_TRUE(outcome_with({mismatching("tf32", Accuracy::reduced),
                            mismatching("fp16x3", Accuracy::fp32)})
                  .any_failure());
  BackendResult errored;
  errored.status = Status::error;
  errored.expected_accuracy = Accuracy::reduced;
  EXPECT_TRUE(outcome_with({errored}).any_failure());
}

std::string table_of(const RunOutcome& outcome) {
  std::FILE* file = std::tmpfile();
  print_table(file, outcome, Tolerance{});
  std::rewind(file);
  std::string text;
  for (int c; (c = std::fgetc(file)) != EOF;) text.push_back(static_cast<char>(c));
  std::fclose(file);
  return text;
}

TEST(SplitBackends, TableMarksExpectedMismatchesAndShowsPrepack) {
  BackendResult fp16x3;
  fp16x3.backend = "fp16x3";
  fp16x3.prepack_ms = 0.125;
  const std::string text = table_of(outcome_with({mismatching("tf32", Accuracy::reduced),
                                                  mismatching("naive", Accuracy::fp32), fp16x3}));
  EXPECT_NE(text.find("tf32       mismatch*"), std::string::npos) << text;
  EXPECT_NE(text.find("naive      mismatch "), std::string::npos) << text;
  EXPECT_NE(text.find("* expected: reduced precision"), std::string::npos) << text;
  EXPECT_NE(text.find("tf32 mismatch (expected: reduced precision): 12 of 100"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("naive mismatch (expected"), std::string::npos) << text;
  EXPECT_NE(text.find("fp16x3 weight prepack: 0.1250 ms (not in the timed iterations)"),
            std::string::npos)
      << text;
}

TEST(SplitBackends, ReportRecordsAccuracyClassAndPrepack) {
  BackendResult fp16x3;
  fp16x3.backend = "fp16x3";
  fp16x3.prepack_ms = 0.125;
  RunOutcome outcome = outcome_with({mismatching("bf16", Accuracy::reduced), fp16x3});
  outcome.include_prepack = true;
  RunConfig config;
  config.execution.include_prepack = true;
  set_flag(config, "--backend-option", "fp16x3.chunks=4");
  const nlohmann::json report = build_report(outcome, config, {"mishbench"});
  EXPECT_TRUE(check_report(report).ok());
  expect_matches_published_schema(report);
  EXPECT_EQ(report["settings"]["include_prepack"], true);
  EXPECT_EQ(report["settings"]["backend_options"]["fp16x3"]["chunks"], 4);
  const nlohmann::json& results = report["results"];
  EXPECT_EQ(results[0]["status"], "mismatch");
  EXPECT_EQ(results[0]["expected_accuracy"], "reduced");
  EXPECT_TRUE(results[0]["prepack_ms"].is_null());
  EXPECT_DOUBLE_EQ(results[0]["verification"]["max_abs"].get<double>(), 4.4e-4);
  EXPECT_EQ(results[1]["expected_accuracy"], "fp32");
  EXPECT_DOUBLE_EQ(results[1]["prepack_ms"].get<double>(), 0.125);

  nlohmann::json broken = report;
  broken["results"][0]["expected_accuracy"] = "approximately";
  EXPECT_FALSE(check_report(broken).ok());
  expect_refused_by_published_schema(broken);
}

}  // namespace
}  // namespace mish
