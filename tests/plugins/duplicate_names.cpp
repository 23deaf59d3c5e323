// Load failure: two backends of one library with the same name.
#include "test_plugin.h"

namespace {

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("twin", MISHBENCH_HOST, test_plugin::run_honest_host),
    test_plugin::shape_backend("twin", MISHBENCH_HOST, test_plugin::run_honest_host)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
