// Shared by GPU tests: skip cleanly (with the reason) when no CUDA device is usable.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "backends/registry.h"
#include "env/environment.h"
#include "run/runner.h"

namespace mish {

// Runs the built-in backends that `config.backends` names, as the command line would.
inline RunOutcome run_builtin_backends(const RunConfig& config) {
  return run_benchmark(config, select_backends(builtin_backends(), config.backends));
}

}  // namespace mish

#define MISH_REQUIRE_GPU()                                                  \
  do {                                                                      \
    std::string mish_why_;                                                  \
    if (!::mish::query_device(&mish_why_))                                  \
      GTEST_SKIP() << "no CUDA device (" << mish_why_ << "): GPU test skipped"; \
  } while (0)
