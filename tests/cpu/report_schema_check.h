// A report checked against the published JSON Schema (docs/report-schema.json) the way a user in
// any language can check it: tests/scripts/validate_report.py run by python3 on a copy of the
// report. A test skips, with the script's reason, when python3 lacks the jsonschema module.
#pragma once
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace mish {

// What validate_report.py said about one report: exit code 0 valid, 1 invalid, 77 no jsonschema
// module; the output names each error with its JSON path.
struct PublishedSchemaVerdict {
  int exit_code = -1;
  std::string output;
};

inline PublishedSchemaVerdict validate_with_published_schema(const nlohmann::json& report) {
  PublishedSchemaVerdict verdict;
  std::string path = ::testing::TempDir() + "mish_report_schema_XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) {
    verdict.output = "cannot create a temporary file for the report";
    return verdict;
  }
  ::close(fd);
  std::ofstream(path) << report.dump(2);
  const std::string command =
      fmt::format("python3 '{}/tests/scripts/validate_report.py' '{}' 2>&1", MISHBENCH_SOURCE_DIR,
                  path);
  if (std::FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0;)
      verdict.output.append(buffer, n);
    const int status = ::pclose(pipe);
    verdict.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  } else {
    verdict.output = "cannot run: " + command;
  }
  std::remove(path.c_str());
  return verdict;
}

// Expects validate_report.py to exit `expected` on `report` (the output, with every error, goes
// into the failure message); skips the test when python3 lacks the jsonschema module.
inline void expect_published_schema_exit(const nlohmann::json& report, int expected) {
  const PublishedSchemaVerdict verdict = validate_with_published_schema(report);
  if (verdict.exit_code == 77) GTEST_SKIP() << verdict.output;
  EXPECT_EQ(verdict.exit_code, expected) << verdict.output;
}

inline void expect_matches_published_schema(const nlohmann::json& report) {
  expect_published_schema_exit(report, 0);
}

inline void expect_refused_by_published_schema(const nlohmann::json& report) {
  expect_published_schema_exit(report, 1);
}

}  // namespace mish
