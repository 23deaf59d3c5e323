// Cheat: computes y honestly but on a stream of its own, not the one it is given, and never
// joins it, so the CUDA events around run() miss the work. The stream is a blocking one, so the
// tool's synchronous copies through the legacy default stream still wait for it and y verifies:
// only comparing the events with device-synchronized wall time catches it.
#include "device_layer.h"

namespace {

struct OtherStream {
  mishbench_shape shape;
  cudaStream_t stream = nullptr;
};

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char* message, size_t size) {
  auto* self = new OtherStream{*shape};
  if (test_plugin::cuda_status(cudaStreamCreate(&self->stream), "cudaStreamCreate", message,
                               size) != MISHBENCH_OK) {
    delete self;
    return MISHBENCH_ERROR;
  }
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void*, char* message, size_t size) {
  const auto* self = static_cast<const OtherStream*>(instance);
  return test_plugin::enqueue_layer(self->shape, *t, self->stream, message, size);
}

void teardown(void* instance) {
  auto* self = static_cast<OtherStream*>(instance);
  cudaStreamDestroy(self->stream);
  delete self;
}

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("other-stream", MISHBENCH_DEVICE, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
