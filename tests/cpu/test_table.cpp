// The console table of a run (reports/report/table.h), from outcomes made here: its columns line up
// whatever the backends are named.
#include <gtest/gtest.h>
#include <stdio.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "reports/report/table.h"

namespace mish {
namespace {

// A host result that verified: `median_ms` with a tight 95% interval, 128 outputs checked.
BackendResult timed(const std::string& name, double median_ms) {
  BackendResult r;
  r.backend = name;
  r.math_mode = "fp32";
  r.stats.count = 100;
  r.stats.median = median_ms;
  r.stats.ci_low = 0.99 * median_ms;
  r.stats.ci_high = 1.01 * median_ms;
  r.stats.ci_confidence = 0.95;
  Verification v;
  v.checked = 128;
  v.max_abs = 7.35e-7;
  r.verification = v;
  return r;
}

ProblemRun problem_run(int64_t m, std::vector<BackendResult> results) {
  ProblemRun run;
  run.problem.m = m;
  run.problem.n = 16;
  run.problem.k = 32;
  run.reference_ms = 1;
  run.results = std::move(results);
  return run;
}

RunOutcome host_run(std::vector<BackendResult> results) {
  RunOutcome outcome;
  outcome.runs.push_back(problem_run(8, std::move(results)));
  return outcome;
}

BackendResult with_status(BackendResult r, Status status) {
  r.status = status;
  return r;
}

std::string table(const RunOutcome& outcome, const Tolerance& tolerance = {}) {
  char* buffer = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&buffer, &size);
  print_table(out, outcome, tolerance);
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

// The line of `text` that starts with `start`.
std::string line_of(const std::string& text, const std::string& start) {
  const size_t at = ("\n" + text).find("\n" + start);
  if (at == std::string::npos) return "";
  return text.substr(at, text.find('\n', at) - at);
}

TEST(Table, TheNameColumnIsAsWideAsTheLongestName) {
  const std::string text =
      table(host_run({timed("cpu", 0.5), timed("a-rather-long-plugin-name", 0.25)}));
  const std::string header = line_of(text, "backend ");
  ASSERT_FALSE(header.empty()) << text;
  const size_t status = header.find("status");
  const size_t median = header.find("median ms") + std::string("median ms").size();
  for (const auto& [name, median_text] : {std::pair<std::string, std::string>{"cpu ", "0.5000"},
                                          {"a-rather-long-plugin-name ", "0.2500"}}) {
    const std::string row = line_of(text, name);
    ASSERT_FALSE(row.empty()) << text;
    EXPECT_EQ(row.find("ok"), status) << text;
    EXPECT_EQ(row.find(median_text) + median_text.size(), median) << text;
  }
}

TEST(Table, NonFiniteOutputsShowNoMaxAbsError) {
  BackendResult nan = timed("nan-out", 0.5);
  nan.status = Status::mismatch;
  nan.verification->nonfinite = 64;
  nan.verification->mismatches = 64;
  const std::string row = line_of(table(host_run({nan})), "nan-out ");
  EXPECT_NE(row.find(" non-finite         64"), std::string::npos) << row;
  EXPECT_EQ(row.find("7.35e-07"), std::string::npos) << row;
  EXPECT_NE(line_of(table(host_run({timed("cpu", 0.5)})), "cpu ").find("7.35e-07"),
            std::string::npos);
}

// The CI +-% column of a result whose 95% interval of the median is [low, high] x median,
// covering the true median with probability `coverage`.
std::string ci_column(double low, double high, double coverage) {
  BackendResult r = timed("cpu", 1.0);
  r.stats.ci_low = low;
  r.stats.ci_high = high;
  r.stats.ci_confidence = coverage;
  const std::string row = line_of(table(host_run({r})), "cpu ");
  const size_t median = row.find("1.0000") + 6;
  const size_t start = row.find_first_not_of(' ', median);
  return row.substr(start, row.find(' ', start) - start);
}

TEST(Table, TheCiColumnIsHalfThe95PercentIntervalOfTheMedian) {
  EXPECT_EQ(ci_column(0.99, 1.01, 0.95), "1.00");
  EXPECT_EQ(ci_column(0.5, 7.1, 0.96), ">99");   // wider than the median: no useful figure
  EXPECT_EQ(ci_column(0.2, 7.1, 0.75), "-");     // 3 samples: [min, max] covers 75%, not 95%
  EXPECT_EQ(ci_column(0.99, 1.01, 0.9375), "-");  // 5 samples
}

// The TFLOP/s column of a host result of 8x16x32 (8192 FLOP) at `median_ms`.
std::string flops_column(double median_ms) {
  const std::string row = line_of(table(host_run({timed("cpu", median_ms)})), "cpu ");
  const size_t ci = row.find("1.00") + 4;  // the CI column, then TFLOP/s
  const size_t start = row.find_first_not_of(' ', ci);
  return row.substr(start, row.find(' ', start) - start);
}

TEST(Table, RatesBelowOneTflopsShowTheirOwnUnitAndNoExponent) {
  EXPECT_EQ(flops_column(8192e-12 / 50.6 * 1e3), "50.6");  // 50.6 TFLOP/s: the column's unit
  EXPECT_EQ(flops_column(8192e-12 / 1234.0 * 1e3), "1234");  // no "1.23e+03"
  EXPECT_EQ(flops_column(8192e-9 / 877.0 * 1e3), "877G");
  EXPECT_EQ(flops_column(8192e-9 / 2.08 * 1e3), "2.08G");
  EXPECT_EQ(flops_column(8192e-6 / 407.0 * 1e3), "407M");  // was 0.000407
  EXPECT_EQ(flops_column(8192e-12 / 0.99995 * 1e3), "1");    // rounds up into TFLOP/s
}

TEST(Table, ALegendSaysWhatTheFiguresAreAndTheTolerance) {
  Tolerance tolerance;
  tolerance.atol = 1e-3;
  tolerance.rtol = 5e-4;
  const std::string text = table(host_run({timed("cpu", 0.5)}), tolerance);
  EXPECT_NE(text.find("\n  CI +-%: half the median's 95% confidence interval; peak: of the math "
                      "mode's peak on this GPU; floor: median / roofline floor; speedup: vs "
                      "separate\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n  verified: every checked output within atol 0.001 + rtol 0.0005 x "
                      "|reference|\n"),
            std::string::npos)
      << text;
}

TEST(Table, SeveralProblemsCloseWithWhatFailed) {
  BackendResult reduced = with_status(timed("tf32", 0.1), Status::mismatch);
  reduced.expected_accuracy = Accuracy::reduced;
  RunOutcome outcome;
  outcome.runs.push_back(problem_run(8, {timed("cpu", 0.5), reduced}));
  outcome.runs.push_back(problem_run(64, {timed("cpu", 0.5), reduced}));
  outcome.runs.push_back(problem_run(128, {with_status(timed("cpu", 0.5), Status::mismatch),
                                           with_status(timed("mine", 0.5), Status::error)}));
  const std::string text = table(outcome);
  EXPECT_NE(text.find("\n3 problems, 6 results: 2 ok, 2 mismatch*, 1 mismatch, 1 error; failed "
                      "on 1 of them:\n  128x16x32 (kernelbench, seed 42): cpu mismatch, mine "
                      "error\n"),
            std::string::npos)
      << text;
  outcome.runs.pop_back();
  EXPECT_NE(table(outcome).find("\n2 problems, 4 results: 2 ok, 2 mismatch*; none failed\n"),
            std::string::npos);
  EXPECT_EQ(table(host_run({timed("cpu", 0.5)})).find(" results: "), std::string::npos);
}

// A time taken while another process used the GPU says so under its row, --quiet or not (the
// table is all --quiet prints).
TEST(Table, ATimeTakenOnASharedGpuSaysWhoSharedIt) {
  BackendResult shared = timed("fused", 2.7);
  shared.shared_gpu = true;
  shared.other_processes.push_back(OtherProcess{8877, "mishbench", 5u << 30});
  const std::string text = table(host_run({shared, timed("cpu", 0.5)}));
  EXPECT_NE(text.find("  fused      shared    GPU used by pid 8877 (mishbench) while timed: timings "
                      "disturbed, compare will not gate on them\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(line_of(text, "  cpu        shared"), "") << text;

  // Another process chose its name: it is shown escaped, never raw on the terminal.
  shared.other_processes = {OtherProcess{9, "evil\x1b[2J", 0}};
  const std::string escaped = table(host_run({shared}));
  EXPECT_EQ(escaped.find('\x1b'), std::string::npos) << escaped;
  EXPECT_NE(escaped.find("GPU used by pid 9 (evil\\x1b[2J)"), std::string::npos) << escaped;
}

}  // namespace
}  // namespace mish
