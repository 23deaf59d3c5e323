// Cheat: run() enqueues nothing and write_output() enqueues the whole (honest) layer, so that
// the work lands in the call plugin.h describes as untimed. When write_output() is timed right
// after run(), the work is timed: the cheat is neutralized.
// Verdict: ok, at a median no lower than half of honest-device's (neutralized).
#include "device_layer.h"

namespace {

int run(void*, const mishbench_tensors*, void*, char*, size_t) { return MISHBENCH_OK; }

constexpr mishbench_backend with_write_output(mishbench_backend backend) {
  backend.write_output = test_plugin::run_honest_device;
  return backend;
}

const mishbench_backend kBackends[] = {
    with_write_output(test_plugin::shape_backend("device-write-output", MISHBENCH_DEVICE, run))};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
