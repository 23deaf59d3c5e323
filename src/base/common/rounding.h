// Integer rounding for sizes, tile counts and launch grids, and pointer alignment (host code).
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

// Whether `pointer` sits on a multiple of `bytes` (a vectorized kernel path's precondition).
inline bool is_aligned(const void* pointer, uintptr_t bytes) {
  return reinterpret_cast<uintptr_t>(pointer) % bytes == 0;
}

}  // namespace mish
