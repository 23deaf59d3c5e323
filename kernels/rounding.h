// Integer rounding for sizes, tile counts and launch grids (host code).
#pragma once
#include <cstdint>

namespace mish {

// The number of `divisor`-sized pieces that cover `value` (value >= 0, divisor > 0).
constexpr int64_t ceil_div(int64_t value, int64_t divisor) {
  return (value + divisor - 1) / divisor;
}

// `value` rounded up to a multiple of `multiple`.
constexpr int64_t round_up(int64_t value, int64_t multiple) {
  return ceil_div(value, multiple) * multiple;
}

}  // namespace mish
