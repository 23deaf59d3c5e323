// How long the watchdog waits for a worker before it kills it.
#pragma once
#include <chrono>

namespace mish {

struct WorkerLimits {
  std::chrono::seconds setup{600};  // starting the worker and setup() (compiles, imports)
  std::chrono::seconds step{60};    // the longest silence in any other step
};

}  // namespace mish
