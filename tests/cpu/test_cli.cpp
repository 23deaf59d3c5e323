// The built mishbench binary, run as a user would: bad input gives exit 2 and one line saying what
// is wrong, a GPU backend without a device gives exit 3, and a host-only run of configs/ci.json
// verifies and writes a report that passes the schema check and the published JSON Schema.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "backends/builtin/registry.h"
#include "base/env/environment.h"
#include "report_schema_check.h"
#include "reports/report/schema.h"

namespace mish {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Invocation {
  int exit_code = -1;
  std::string out, err;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A scratch folder per test; `run` executes mishbench with `args` (shell words, {dir} is the
// scratch folder) and captures its exit code, stdout and stderr.
class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name =
        fmt::format("mish_cli_{}_{}_{}", ::getpid(), test->test_suite_name(), test->name());
    std::replace(name.begin(), name.end(), '/', '_');  // parameterized names contain '/'
    dir = fs::temp_directory_path() / name;
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  Invocation run(std::string args) const {
    for (size_t at; (at = args.find("{dir}")) != std::string::npos;) args.replace(at, 5, dir.string());
    const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
    const std::string command =
        fmt::format("cd '{}' && '{}' {} >'{}' 2>'{}'", MISHBENCH_SOURCE_DIR, MISHBENCH_BINARY, args,
                    out.string(), err.string());
    const int status = std::system(command.c_str());
    Invocation result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = read_text(out);
    result.err = read_text(err);
    fs::remove(out);
    fs::remove(err);
    return result;
  }

  void write_file(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
  }

  fs::path dir;
};

struct BadInput {
  const char* name;
  const char* args;
  const char* message_mentions;
};

class CliRejects : public Cli, public ::testing::WithParamInterface<BadInput> {};

TEST_P(CliRejects, WithExitTwoAndOneLine) {
  write_file("invalid.json", "{\"iters\": 10,,}");
  write_file("unknown-key.json", "{\"iterations\": 10}");
  const Invocation r = run(GetParam().args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "expected one line, got:\n" << r.err;
  EXPECT_EQ(r.err.rfind("mishbench: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(GetParam().message_mentions), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, CliRejects,
    ::testing::Values(
        BadInput{"unknown_backend", "--backend=nope", "unknown backend 'nope'"},
        BadInput{"all_in_a_list", "--backend=all,cpu", "cannot be combined"},
        BadInput{"repeated_backend", "--backend=cpu,cpu", "listed twice"},
        BadInput{"m_zero", "--m 0", "--m: '0' is out of range"},
        BadInput{"m_negative", "--m -3", "--m: '-3' is out of range"},
        BadInput{"k_overflow", "--k 99999999999", "--k: '99999999999' is out of range"},
        BadInput{"iters_zero", "--iters 0", "--iters: '0' is out of range; expected an integer from 1 to 1000000"},
        BadInput{"negative_atol", "--atol -1", "--atol"},
        BadInput{"unknown_distribution", "--distribution cauchy", "--distribution: unknown value 'cauchy'"},
        BadInput{"unknown_l2_mode", "--l2 cold", "--l2: unknown value 'cold'"},
        BadInput{"unreadable_config", "--config {dir}/missing.json", "--config: cannot read"},
        BadInput{"invalid_json_config", "--config {dir}/invalid.json", "is not valid JSON"},
        BadInput{"unknown_config_key", "--config {dir}/unknown-key.json", "unknown key 'iterations'"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(Cli, AMisspelledFlagIsNamedWithTheClosestOneAndTakesItsValue) {
  Invocation r = run("--iter 3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "mishbench: unknown flag '--iter' (did you mean --iters?); see mishbench --help\n");
  r = run("compare {dir}/a.json {dir}/b.json --treshold 0.05");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "mishbench: unknown flag '--treshold' (did you mean --threshold?); see mishbench "
            "compare --help\n");
  r = run("--bogus 3 stray");  // nothing close: no suggestion; the word after its value is stray
  EXPECT_EQ(r.err, "mishbench: unknown flag '--bogus' and 1 more: 'stray'; see mishbench --help\n");
}

TEST_F(Cli, AnUnknownBackendIsNamedWithTheClosestOneOrHowToLoadOne) {
  Invocation r = run("--backend=fusd");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("mishbench: unknown backend 'fusd' (did you mean 'fused'?); known "
                        "backends: naive, ",
                        0),
            0u)
      << r.err;
  r = run("--backend=cpu,torch-egaer");
  EXPECT_NE(r.err.find("(did you mean 'torch-eager'?)"), std::string::npos) << r.err;
  // The shipped solutions are known although a run that does not name them leaves them out.
  EXPECT_NE(r.err.find(", cpu, torch-compile, torch-eager (see --list-backends)"),
            std::string::npos)
      << r.err;
  r = run("--backend=mine");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("(see --list-backends); a plugin's or a solution's backend joins the run "
                       "with --plugin LIBRARY or --solution FILE\n"),
            std::string::npos)
      << r.err;
  r = run("--backend-option fusd.x=1");
  EXPECT_NE(r.err.find("backend option for unknown backend 'fusd' (did you mean 'fused'?)"),
            std::string::npos)
      << r.err;
}

// Without a device, the GPU backends are skipped with the reason, the host backends still run,
// and the exit code (3) says something could not run for want of a GPU.
TEST_F(Cli, GpuBackendWithoutDeviceIsSkippedAndTheHostBackendsRun) {
  if (query_device()) GTEST_SKIP() << "a CUDA device is present";
  for (const char* backends : {"fused", "all", "cpu,fused"}) {
    const std::string report = (dir / "no-device.json").string();
    const Invocation r =
        run(fmt::format("--backend={} --m 8 --n 8 --k 8 -q --json {}", backends, report));
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_NE(r.err.find("no CUDA device"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--backend=cpu"), std::string::npos) << r.err;
    const nlohmann::json results = nlohmann::json::parse(std::ifstream(report)).at("results");
    bool fused_seen = false;
    for (const nlohmann::json& result : results) {
      if (result.at("backend") == "cpu") EXPECT_EQ(result.at("status"), "ok") << result.dump();
      if (result.at("backend") != "fused") continue;
      fused_seen = true;
      EXPECT_EQ(result.at("status"), "skipped");
      EXPECT_NE(result.at("reason").get<std::string>().find("no CUDA device"), std::string::npos);
    }
    EXPECT_TRUE(fused_seen) << backends;
  }
}

TEST_F(Cli, HelpExitsZero) {
  const Invocation r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--backend"), std::string::npos);
  EXPECT_NE(r.out.find("Exit codes"), std::string::npos);
}

TEST_F(Cli, ListBackendsNamesEveryBackendAndExitsZero) {
  const Invocation r = run("--list-backends");
  EXPECT_EQ(r.exit_code, 0);
  for (const std::string& name : backend_names(builtin_backends()))
    EXPECT_NE(("\n" + r.out).find("\n" + name + " "), std::string::npos)
        << name << " missing from:\n" << r.out;
}

// The column after the first word of each line of `text`: where the second column starts.
std::vector<size_t> second_columns(const std::string& text) {
  std::vector<size_t> columns;
  for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = text.substr(start, end - start);
    columns.push_back(line.find_first_not_of(' ', line.find(' ')));
  }
  return columns;
}

TEST_F(Cli, ListBackendsSizesTheNameColumnToTheLongestName) {
  const Invocation r = run("--list-backends");  // torch-compile: 13 characters
  ASSERT_NE(r.out.find("\ntorch-compile device "), std::string::npos) << r.out;
  const std::vector<size_t> columns = second_columns(r.out);
  ASSERT_FALSE(columns.empty());
  for (size_t column : columns) EXPECT_EQ(column, 14u) << r.out;
}

TEST_F(Cli, CpuRunOfCiConfigVerifiesAndWritesAValidReport) {
  const Invocation r = run("--backend=cpu --config configs/ci.json --json {dir}/report.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cpu"), std::string::npos);
  const json report = json::parse(read_text(dir / "report.json"));
  const SchemaCheck check = check_report(report);
  EXPECT_TRUE(check.ok()) << (check.errors.empty() ? "" : check.errors.front());
  expect_matches_published_schema(report);
  EXPECT_TRUE(report["device"].is_null());
  const json config = json::parse(read_text(fs::path(MISHBENCH_SOURCE_DIR) / "configs/ci.json"));
  ASSERT_EQ(report["results"].size(), config["problems"].size());
  for (const json& result : report["results"]) {
    EXPECT_EQ(result["backend"], "cpu");
    EXPECT_EQ(result["status"], "ok") << result["reason"];
    const json& problem = result["problem"];
    EXPECT_EQ(result["verification"]["mismatches"], 0);
    EXPECT_EQ(result["verification"]["nonfinite"], 0);
    EXPECT_EQ(result["verification"]["checked"],
              problem["m"].get<int64_t>() * problem["n"].get<int64_t>());
    EXPECT_EQ(result["timing"]["samples_ms"].size(), config["iters"].get<size_t>());
  }
  // Only the report is left behind: no temporary file.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), {}), 1);
}

TEST_F(Cli, FlagsOverrideTheConfigFile) {
  const Invocation r =
      run("--config configs/ci.json --m 5 --seed 3 --iters 3 --warmup 0 --json {dir}/r.json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(read_text(dir / "r.json"));
  expect_matches_published_schema(report);
  const json config = json::parse(read_text(fs::path(MISHBENCH_SOURCE_DIR) / "configs/ci.json"));
  EXPECT_EQ(report["settings"]["iters"], 3);
  EXPECT_EQ(report["settings"]["warmup"], 0);
  ASSERT_EQ(report["problems"].size(), config["problems"].size());
  for (size_t i = 0; i < config["problems"].size(); ++i) {
    EXPECT_EQ(report["problems"][i]["m"], 5);                          // from the flag
    EXPECT_EQ(report["problems"][i]["seed"], 3);                       // from the flag
    EXPECT_EQ(report["problems"][i]["n"], config["problems"][i]["n"]);  // from the file
    EXPECT_EQ(report["problems"][i]["k"], config["problems"][i]["k"]);
  }
  for (const json& result : report["results"]) EXPECT_EQ(result["timing"]["samples_ms"].size(), 3u);
}

TEST_F(Cli, ReportIntoMissingFolderLeavesNothingBehind) {
  const Invocation r = run("--backend=cpu --config configs/ci.json --json {dir}/missing/report.json");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_NE(r.err.find("folder '" + (dir / "missing").string() + "' does not exist"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "missing"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), {}), 0);
}

}  // namespace
}  // namespace mish
