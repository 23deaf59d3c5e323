// A run's machine-readable outputs: `--json -` puts the report on stdout and the table on
// stderr; --csv and --markdown export the results, names escaped for each; two outputs on one
// file or both on stdout are refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "mishbench_process.h"
#include "reports/export/run_exports.h"
#include "reports/report/schema.h"

namespace mish {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json report_with(const std::string& backend, const std::string& reason) {
  const json problem = {{"m", 2}, {"n", 3}, {"k", 4}, {"seed", 7}, {"distribution", "normal"}};
  return {{"devices", json::array({{{"name", "NVIDIA H200"}}})},
          {"results",
           json::array({{{"backend", backend},
                         {"problem", problem},
                         {"device_index", 0},
                         {"status", "ok"},
                         {"reason", reason},
                         {"timing",
                          {{"median_ms", 1.5},
                           {"median_ci95_ms", {1.4, 1.6}},
                           {"min_ms", 1.2},
                           {"max_ms", 2.0},
                           {"count", 100}}},
                         {"tflops", 3.25},
                         {"speedup_vs_separate", nullptr},
                         {"verification", {{"max_abs", 1e-6}, {"max_rel", 2e-6}}}}})}};
}

TEST(RunExports, CsvHasAHeaderAndOneQuotedRowPerResult) {
  const std::string csv = results_csv(report_with("my,backend", "said \"no\"\nthen yes"));
  const std::string header = csv.substr(0, csv.find("\r\n"));
  EXPECT_EQ(header.rfind("backend,m,n,k,seed,distribution,device,status,median_ms,", 0), 0u);
  EXPECT_NE(csv.find("\"my,backend\",2,3,4,7,normal,NVIDIA H200,ok,1.5,1.4,1.6,1.2,2.0,100,3.25,,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",\"said \"\"no\"\"\nthen yes\"\r\n"), std::string::npos) << csv;
}

TEST(RunExports, CsvCellsCannotBeReadAsFormulas) {
  EXPECT_NE(results_csv(report_with("=HYPERLINK(\"x\")", "")).find("\"'=HYPERLINK(\"\"x\"\")\""),
            std::string::npos);
  EXPECT_NE(results_csv(report_with("@sum", "-1")).find("'@sum,"), std::string::npos);
}

TEST(RunExports, MarkdownIsATableWithEscapedNames) {
  const std::string md = results_markdown(report_with("evil|name\n# heading", ""));
  EXPECT_EQ(md.rfind("### mishbench run\n", 0), 0u);
  EXPECT_NE(md.find("| evil\\|name\\n\\# heading | 2x3x4 normal seed 7 | NVIDIA H200 | ok | "
                    "1.5000 | [1.4000, 1.6000] | 3.25 | - |"),
            std::string::npos)
      << md;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

class RunOutputs : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir = fs::temp_directory_path() /
          ("mish_exports_" + std::to_string(::getpid()) + "_" + test);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  ProcessResult run(std::vector<std::string> extra) const {
    std::vector<std::string> args = {"--backend=cpu", "--m", "16", "--n", "32", "--k", "64",
                                     "--iters", "3", "--warmup", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_mishbench(args, dir.string());
  }
  fs::path dir;
};

TEST_F(RunOutputs, JsonDashPutsTheReportOnStdoutAndTheTableOnStderr) {
  const ProcessResult r = run({"--json", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);  // nothing else on stdout
  EXPECT_TRUE(check_report(report).ok());
  EXPECT_EQ(report["results"][0]["backend"], "cpu");
  EXPECT_NE(r.err.find("backend    status"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("report written"), std::string::npos) << r.err;
}

TEST_F(RunOutputs, CsvAndMarkdownExportTheRun) {
  const std::string csv = (dir / "run.csv").string(), md = (dir / "summary.md").string();
  for (int run_count = 0; run_count < 2; ++run_count)
    ASSERT_EQ(run({"--csv", csv, "--markdown", md}).exit_code, 0);
  const std::string table = read_text(csv);
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 2) << table;  // replaced, not appended
  EXPECT_NE(table.find("\r\ncpu,16,32,64,42,kernelbench,host,ok,"), std::string::npos) << table;
  const std::string summary = read_text(md);
  EXPECT_EQ(summary.find("### mishbench run"), 0u);
  EXPECT_NE(summary.find("### mishbench run", 1), std::string::npos) << "appended: " << summary;
}

TEST_F(RunOutputs, CsvDashGoesToStdout) {
  const ProcessResult r = run({"--csv", "-", "--json", (dir / "r.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("backend,m,n,k,", 0), 0u) << r.out;
  EXPECT_TRUE(fs::exists(dir / "r.json"));
}

TEST_F(RunOutputs, OutputsThatCollideAreRefused) {
  ProcessResult r = run({"--json", "-", "--markdown", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--json - and --markdown - both ask for standard output"), std::string::npos)
      << r.err;
  const std::string same = (dir / "x").string();
  r = run({"--json", same, "--csv", same});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("are the same file"), std::string::npos) << r.err;
  r = run({"--markdown", ""});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--markdown '': the file name is empty"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(same));
}

}  // namespace
}  // namespace mish
