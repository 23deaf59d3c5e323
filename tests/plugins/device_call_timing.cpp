// Cheat: tells timed runs from verified ones by the host clock. A run that comes within 10 ms of
// the previous run's return (a series enqueued back to back) computes from x and W rounded to
// bf16 in the kernel; one after a longer pause (a verification, after the tool's own work) in
// true fp32. It claims fp32 throughout. When every call is verified, the back-to-back calls of a
// series are verified too.
// Verdict: mismatch ("did not match").
#include <chrono>

#include "device_kernels.h"
#include "device_layer.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kBackToBack = std::chrono::milliseconds(10);

struct CallTiming {
  mishbench_shape shape;
  bool called = false;
  Clock::time_point last_return;
};

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char*, size_t) {
  *instance = new CallTiming{*shape};
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  auto* self = static_cast<CallTiming*>(instance);
  test_plugin::LayerVariant variant;
  variant.bf16_inputs = self->called && Clock::now() - self->last_return < kBackToBack;
  const int status = test_plugin::layer_with(self->shape, *t, variant,
                                             static_cast<cudaStream_t>(stream), message, size);
  self->called = true;
  self->last_return = Clock::now();
  return status;
}

void teardown(void* instance) { delete static_cast<CallTiming*>(instance); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("device-call-timing", MISHBENCH_DEVICE, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
