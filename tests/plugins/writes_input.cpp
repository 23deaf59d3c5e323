// Cheat: computes y honestly, then writes into its input x. Checksumming the inputs after the
// run must catch it.
#include "test_plugin.h"

namespace {

int run(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  test_plugin::compute_layer(test_plugin::shape_of(instance), *t);
  const_cast<float*>(t->x)[0] += 1.0f;
  return MISHBENCH_OK;
}

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("writes-input", MISHBENCH_HOST, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
