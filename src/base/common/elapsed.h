// Milliseconds of wall time since a point on the steady clock.
#pragma once
#include <chrono>

namespace mish {

inline double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

}  // namespace mish
