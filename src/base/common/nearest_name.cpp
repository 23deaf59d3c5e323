#include "base/common/nearest_name.h"

#include <algorithm>
#include <cctype>

namespace mish {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Two letters or fewer: any other name is as close as a misspelling ("k" and "m").
size_t allowed_edits(std::string_view name) {
  return name.size() <= 2 ? 0 : name.size() <= 4 ? 1 : name.size() <= 8 ? 2 : 3;
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the optimal-string-alignment table: the one two back is for swaps.
  std::vector<size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const bool same = lower(a[i - 1]) == lower(b[j - 1]);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> nearest_name(std::string_view given,
                                        const std::vector<std::string>& known) {
  std::optional<std::string> best;
  size_t best_distance = allowed_edits(given) + 1;
  for (const std::string& name : known) {
    // The lengths alone differ by more edits than allowed: not worth the table (a 10 MB name).
    const size_t longer = std::max(given.size(), name.size());
    if (longer - std::min(given.size(), name.size()) >= best_distance) continue;
    const size_t distance = edit_distance(given, name);
    if (name != given && distance < best_distance) {
      best = name;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace mish
