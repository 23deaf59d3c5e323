// Failure reported the right way: run() returns MISHBENCH_ERROR with a message.
#include "test_plugin.h"

namespace {

int run(void*, const mishbench_tensors*, void*, char* message, size_t size) {
  return test_plugin::fail(message, size, "the tile configuration does not fit this problem");
}

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("error-message", MISHBENCH_HOST, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
