// Cheat: run() does nothing and write_output() computes the whole layer into y, so that the
// work lands in the call plugin.h describes as untimed (made "whenever mishbench is about to read
// y"). The output is right. When write_output() is timed with run(), the work is timed: the
// cheat is neutralized.
// Verdict: ok, at a median no lower than half of honest-host's (neutralized).
#include "test_plugin.h"

namespace {

int run(void*, const mishbench_tensors*, void*, char*, size_t) { return MISHBENCH_OK; }

int write_output(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  test_plugin::compute_layer(test_plugin::shape_of(instance), *t);
  return MISHBENCH_OK;
}

constexpr mishbench_backend with_write_output(mishbench_backend backend) {
  backend.write_output = write_output;
  return backend;
}

const mishbench_backend kBackends[] = {
    with_write_output(test_plugin::shape_backend("write-output-work", MISHBENCH_HOST, run))};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
