// Cheat: returns success without writing y. The poisoned output must fail verification.
#include "test_plugin.h"

namespace {

int run(void*, const mishbench_tensors*, void*, char*, size_t) { return MISHBENCH_OK; }

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("no-output", MISHBENCH_HOST, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
