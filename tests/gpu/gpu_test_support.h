// Shared by GPU tests: skip cleanly (with the reason) when no CUDA device is usable.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "env/environment.h"

#define MISH_REQUIRE_GPU()                                                  \
  do {                                                                      \
    std::string mish_why_;                                                  \
    if (!::mish::query_device(&mish_why_))                                  \
      GTEST_SKIP() << "no CUDA device (" << mish_why_ << "): GPU test skipped"; \
  } while (0)
