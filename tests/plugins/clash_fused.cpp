// Load succeeds, the table does not: an honest backend named like the built-in `fused`.
#include "test_plugin.h"

namespace {

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("fused", MISHBENCH_HOST, test_plugin::run_honest_host)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
