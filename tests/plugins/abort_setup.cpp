// Crash: setup() calls abort() (SIGABRT), as a failed assert() would.
#include <cstdlib>

#include "test_plugin.h"

namespace {

int setup(void**, const mishbench_shape*, const mishbench_tensors*, const char*, void*, char*,
          size_t) {
  std::abort();
}

const mishbench_backend kBackends[] = {{"abort-setup", "test plugin: aborts in setup()", "fp32",
                                        MISHBENCH_HOST, MISHBENCH_FP32, nullptr, setup, nullptr,
                                        test_plugin::run_honest_host, nullptr, 0, nullptr,
                                        nullptr, nullptr, test_plugin::teardown_shape}};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
