// The version `mishbench --version` prints (CMake's project version) is the newest one that
// CHANGELOG.md describes, so that a release tag, the binary and the changelog agree.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "mishbench_process.h"

namespace mish {
namespace {

TEST(Version, TheChangelogDescribesTheVersionTheBinaryPrints) {
  const ProcessResult r = run_mishbench({"--version"}, ::testing::TempDir());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch printed;
  ASSERT_TRUE(std::regex_search(r.out, printed, std::regex(R"(^mishbench (\d+\.\d+\.\d+) )")))
      << r.out;
  std::ifstream changelog(std::string(MISHBENCH_SOURCE_DIR) + "/CHANGELOG.md");
  ASSERT_TRUE(changelog) << "CHANGELOG.md is missing";
  std::string line, newest;
  const std::regex heading(R"(^## (\d+\.\d+\.\d+)\b.*)");
  for (std::smatch found; newest.empty() && std::getline(changelog, line);)
    if (std::regex_match(line, found, heading)) newest = found[1];
  EXPECT_EQ(newest, printed[1].str()) << "the first versioned heading of CHANGELOG.md";
}

}  // namespace
}  // namespace mish
