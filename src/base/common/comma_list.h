// A comma-separated list as given on a command line ("separate,fused", "0,2"): its parts, empty
// ones included, nothing trimmed; each caller decides what a part may be.
#pragma once
#include <string_view>
#include <vector>

namespace mish {

inline std::vector<std::string_view> split_at_commas(std::string_view text) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) return parts;
    start = comma + 1;
  }
}

}  // namespace mish
