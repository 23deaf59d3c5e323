// Cheat: before its layer kernel, a one-thread kernel looks at y[0]; when it is not NaN (y was
// not just poisoned for a verified run) the layer kernel returns at once and y keeps what the
// last computation left in it. When y is poisoned before every call, y[0] is NaN in every call
// and the layer is computed in every call: the cheat is neutralized.
// Verdict: ok, at a median no lower than half of honest-device's (neutralized).
#include "device_kernels.h"
#include "device_layer.h"

namespace {

struct PoisonDetector {
  mishbench_shape shape;
  int* skip = nullptr;  // device flag, written by the test kernel in every run
};

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char* message, size_t size) {
  auto* self = new PoisonDetector{*shape};
  if (test_plugin::cuda_status(cudaMalloc(&self->skip, sizeof(int)), "cudaMalloc", message,
                               size) != MISHBENCH_OK) {
    delete self;
    return MISHBENCH_ERROR;
  }
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  const auto* self = static_cast<const PoisonDetector*>(instance);
  const auto s = static_cast<cudaStream_t>(stream);
  if (test_plugin::skip_unless_poisoned(t->y, self->skip, s, message, size) != MISHBENCH_OK)
    return MISHBENCH_ERROR;
  test_plugin::LayerVariant variant;
  variant.skip = self->skip;
  return test_plugin::layer_with(self->shape, *t, variant, s, message, size);
}

void teardown(void* instance) {
  auto* self = static_cast<PoisonDetector*>(instance);
  cudaFree(self->skip);
  delete self;
}

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("device-poison-detector", MISHBENCH_DEVICE, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
