// "Did you mean": the edit distance (with swaps of neighbours) and the closest known name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/common/nearest_name.h"

namespace mish {
namespace {

TEST(NearestName, EditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("fused", "fused"), 0u);
  EXPECT_EQ(edit_distance("fusd", "fused"), 1u);        // a letter left out
  EXPECT_EQ(edit_distance("treshold", "threshold"), 1u);
  EXPECT_EQ(edit_distance("torch-egaer", "torch-eager"), 1u);  // two letters swapped
  EXPECT_EQ(edit_distance("FUSED", "fused"), 0u);       // case does not count
  EXPECT_EQ(edit_distance("", "cpu"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(NearestName, SuggestsOnlyWhatIsCloseEnoughToBeAMisspelling) {
  const std::vector<std::string> known = {"naive", "separate", "fused", "cpu", "torch-eager"};
  EXPECT_EQ(nearest_name("fusd", known), "fused");
  EXPECT_EQ(nearest_name("seprate", known), "separate");
  EXPECT_EQ(nearest_name("CPU", known), "cpu");
  EXPECT_EQ(nearest_name("mine", known), std::nullopt);
  EXPECT_EQ(nearest_name("fused", known), std::nullopt);  // known: nothing to suggest
  EXPECT_EQ(nearest_name("gp", {"m", "gpu"}), std::nullopt);  // two letters: too short to tell
  EXPECT_EQ(nearest_name(std::string(10'000'000, 'x'), known), std::nullopt);
}

}  // namespace
}  // namespace mish
