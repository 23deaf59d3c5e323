// Crash: setup() calls abort() (SIGABRT), as a failed assert() would.
#include <cstdlib>

#include "test_plugin.h"

namespace {

int setup(void**, const mishbench_shape*, const mishbench_tensors*, const char*, void*, char*,
          size_t) {
  std::abort();
}

const mishbench_backend kBackends[] = {test_plugin::backend_of(
    "abort-setup", MISHBENCH_HOST, setup, test_plugin::run_honest_host,
    test_plugin::teardown_shape)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
