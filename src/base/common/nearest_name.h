// "Did you mean": the known name closest to a misspelled one, for messages about an unknown
// flag, backend or value.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mish {

// The edit distance of `a` and `b`, ignoring case: insertions, deletions, substitutions and
// swaps of two neighbours ("egaer" for "eager") count one each.
size_t edit_distance(std::string_view a, std::string_view b);

// The name of `known` closest to `given`, when it is close enough to be a misspelling of it (at
// most one edit for names of three or four characters, two up to eight, three beyond; none for
// shorter ones, other than in case) and is not `given` itself; the first of equally close ones.
std::optional<std::string> nearest_name(std::string_view given,
                                        const std::vector<std::string>& known);

}  // namespace mish
