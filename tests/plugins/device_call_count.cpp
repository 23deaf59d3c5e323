// Cheat: computes the layer in its first 2 calls of run() (a first verification and one more)
// and enqueues nothing after that, so a timed series costs only the tool's own overhead and y
// keeps whatever was in it. When every call is verified, the calls that enqueue nothing leave
// y poisoned.
// Verdict: mismatch ("did not match").
#include "device_layer.h"

namespace {

constexpr long kHonestCalls = 2;

struct CallCount {
  mishbench_shape shape;
  long calls = 0;
};

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char*, size_t) {
  *instance = new CallCount{*shape};
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  auto* self = static_cast<CallCount*>(instance);
  if (++self->calls > kHonestCalls) return MISHBENCH_OK;
  return test_plugin::enqueue_layer(self->shape, *t, static_cast<cudaStream_t>(stream), message,
                                    size);
}

void teardown(void* instance) { delete static_cast<CallCount*>(instance); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("device-call-count", MISHBENCH_DEVICE, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
