// Load failure: the table says it was built against another ABI version.
#include "test_plugin.h"

namespace {

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("wrong-abi", MISHBENCH_HOST, test_plugin::run_honest_host)};
const mishbench_plugin kPlugin = {MISHBENCH_PLUGIN_ABI_VERSION + 1, 1, kBackends};

}  // namespace

MISHBENCH_PLUGIN_EXPORT const mishbench_plugin* mishbench_plugin_entry(void) { return &kPlugin; }
