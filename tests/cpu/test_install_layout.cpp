// The paths of shipped files in the help: rewritten only where this binary has the file, so a
// binary in the build tree (this test's, whose data folder holds no docs) keeps them as written,
// and only whole paths of the shipped folders are candidates. The installed case, where they
// become absolute paths into the prefix, is install.help_paths
// (tests/scripts/test_installed_help.cmake).
#include <gtest/gtest.h>

#include <filesystem>

#include "base/env/install_layout.h"

namespace mish {
namespace {

TEST(InstallLayout, APathThisBinaryDoesNotHaveStaysAsWritten) {
  for (const char* text : {"Input distribution (docs/methodology.md)",
                           "--config configs/no-such.json.", "see 'scripts/nothing.py'",
                           "(include/mishbench/no_such.h)",
                           "out.json, build/mishbench, mydocs/x.md", "", "docs/"})
    EXPECT_EQ(with_shipped_paths(text), text);
}

TEST(InstallLayout, TheDataFolderIsBesideTheBinaryOrUnderItsPrefix) {
  const std::filesystem::path here = std::filesystem::path(own_executable()).parent_path();
  ASSERT_EQ(data_folders().size(), 2u);
  EXPECT_EQ(data_folders()[0], here / "share" / "mishbench");
  EXPECT_EQ(library_folders()[0], here);
  EXPECT_EQ(first_existing({here / "no-such-file", here}), std::filesystem::canonical(here));
  EXPECT_EQ(first_existing({here / "no-such-file"}), "");
}

}  // namespace
}  // namespace mish
