// Config files (--config): the shipped configs parse, keys land where they belong, and unknown
// keys, wrong types and bad values are refused with a message naming the key.
#include <gtest/gtest.h>

#include "base/common/errors.h"
#include "settings/run_config.h"

namespace mish {
namespace {

using nlohmann::json;

RunConfig apply(const json& document) {
  RunConfig config;
  apply_config_json(document, "test.json", config);
  return config;
}

// Expects a UsageError whose message contains `needle`.
void expect_refused(const json& document, const std::string& needle) {
  try {
    apply(document);
    ADD_FAILURE() << "accepted " << document.dump();
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find(needle), std::string::npos) << error.what();
    EXPECT_EQ(std::string(error.what()).rfind("test.json", 0), 0u) << error.what();
    EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << error.what();
  }
}

TEST(Config, DefaultJsonDescribesTheDefaultProblem) {
  RunConfig config;
  apply_config_file(std::string(MISHBENCH_SOURCE_DIR) + "/configs/default.json", config);
  ASSERT_EQ(config.problems.size(), 1u);
  const Problem defaults;
  EXPECT_EQ(config.problems[0].m, defaults.m);
  EXPECT_EQ(config.problems[0].n, defaults.n);
  EXPECT_EQ(config.problems[0].k, defaults.k);
  EXPECT_EQ(config.problems[0].seed, defaults.seed);
  EXPECT_EQ(config.backends, std::vector<std::string>{"all"});
  EXPECT_EQ(config.sampling.iters, 100);
  EXPECT_EQ(config.execution.l2, L2Mode::flush);
}

TEST(Config, CiJsonIsSmallAndHostOnly) {
  RunConfig config;
  apply_config_file(std::string(MISHBENCH_SOURCE_DIR) + "/configs/ci.json", config);
  EXPECT_EQ(config.backends, std::vector<std::string>{"cpu"});
  ASSERT_GE(config.problems.size(), 1u);
  for (const Problem& p : config.problems) EXPECT_LE(p.flops(), 1e8);
  validate(config);
}

TEST(Config, SingleProblemAndSettings) {
  const RunConfig c = apply({{"problem", {{"m", 3}, {"n", 5}, {"k", 7}, {"seed", 11},
                                          {"distribution", "normal-unit"}}},
                             {"backends", "fused, cpu"},
                             {"warmup", 0},
                             {"iters", 4},
                             {"atol", 1e-3},
                             {"rtol", 0},
                             {"l2", "hot"}});
  ASSERT_EQ(c.problems.size(), 1u);
  EXPECT_EQ(c.problems[0].m, 3);
  EXPECT_EQ(c.problems[0].n, 5);
  EXPECT_EQ(c.problems[0].k, 7);
  EXPECT_EQ(c.problems[0].seed, 11u);
  EXPECT_EQ(c.problems[0].distribution, Distribution::normal_unit);
  EXPECT_EQ(c.backends, (std::vector<std::string>{"fused", "cpu"}));
  EXPECT_EQ(c.sampling.warmup, 0);
  EXPECT_EQ(c.sampling.iters, 4);
  EXPECT_EQ(c.tolerance.atol, 1e-3);
  EXPECT_EQ(c.tolerance.rtol, 0.0);
  EXPECT_EQ(c.execution.l2, L2Mode::hot);
}

TEST(Config, ProblemListKeepsOrderAndFillsDefaults) {
  const RunConfig c = apply({{"problems", {{{"m", 1}}, {{"m", 2}, {"k", 64}}}},
                             {"backends", {"naive", "separate"}}});
  ASSERT_EQ(c.problems.size(), 2u);
  EXPECT_EQ(c.problems[0].m, 1);
  EXPECT_EQ(c.problems[0].k, Problem{}.k);
  EXPECT_EQ(c.problems[1].m, 2);
  EXPECT_EQ(c.problems[1].k, 64);
  EXPECT_EQ(c.backends, (std::vector<std::string>{"naive", "separate"}));
}

TEST(Config, RefusesUnknownKeys) {
  expect_refused({{"iterations", 5}}, "'iterations'");
  expect_refused({{"problem", {{"rows", 5}}}}, "'rows'");
}

TEST(Config, RefusesWrongTypes) {
  expect_refused({{"iters", "ten"}}, "'iters'");
  expect_refused({{"iters", 2.5}}, "'iters'");
  expect_refused({{"atol", "small"}}, "'atol'");
  expect_refused({{"l2", 1}}, "'l2'");
  expect_refused({{"backends", 3}}, "'backends'");
  expect_refused({{"problem", {{"m", "1024"}}}}, "'m'");
  expect_refused({{"problem", {1024, 8192, 8192}}}, "problem");
  expect_refused(json::array(), "JSON object");
}

TEST(Config, RefusesBadValues) {
  expect_refused({{"problem", {{"m", 0}}}}, "'m': '0' is out of range");
  expect_refused({{"problem", {{"k", -3}}}}, "'k': '-3' is out of range");
  expect_refused({{"problem", {{"seed", -1}}}}, "'seed'");
  expect_refused({{"problem", {{"distribution", "cauchy"}}}}, "cauchy");
  expect_refused({{"iters", -1}}, "'iters'");
  expect_refused({{"l2", "cold"}}, "cold");
  expect_refused({{"problems", json::array()}}, "'problems'");
  expect_refused({{"problem", {{"m", 1}}}, {"problems", {{{"m", 2}}}}}, "not both");
}

TEST(Config, UnreadableOrInvalidFileIsAUsageError) {
  RunConfig config;
  EXPECT_THROW(apply_config_file("/nonexistent/mish.json", config), UsageError);
  const std::string invalid = std::string(MISHBENCH_SOURCE_DIR) + "/CMakeLists.txt";
  EXPECT_THROW(apply_config_file(invalid, config), UsageError);
}

}  // namespace
}  // namespace mish
