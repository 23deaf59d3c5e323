// Load failure: a backend name that is not a CLI name.
#include "test_plugin.h"

namespace {

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("My Kernel", MISHBENCH_HOST, test_plugin::run_honest_host)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
