// Cheat: a one-warp kernel hashes 64 elements of x sampled at evenly spaced positions and
// compares the hash with the last one; while it is unchanged the layer kernel returns at once,
// and the output kept in a buffer of the instance is copied into y, so a series on unchanged x
// costs a hash and a copy per run. When every call gets x with fresh contents, the hash changes
// in every call and the layer is computed in every call: the cheat is neutralized.
// Verdict: ok, at a median no lower than half of honest-device's (neutralized).
#include "device_kernels.h"
#include "device_layer.h"

namespace {

struct HashCache {
  mishbench_shape shape;
  int* skip = nullptr;
  unsigned long long* last_hash = nullptr;
  float* kept = nullptr;  // the output of the last computation [m, n]
};

void release(HashCache* self) {
  cudaFree(self->skip);
  cudaFree(self->last_hash);
  cudaFree(self->kept);
  delete self;
}

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char* message, size_t size) {
  auto* self = new HashCache{*shape};
  const size_t y_bytes = size_t(shape->m * shape->n) * sizeof(float);
  int status = test_plugin::cuda_status(cudaMalloc(&self->skip, sizeof(int)), "cudaMalloc",
                                        message, size);
  if (status == MISHBENCH_OK)
    status = test_plugin::cuda_status(cudaMalloc(&self->last_hash, sizeof(unsigned long long)),
                                      "cudaMalloc", message, size);
  if (status == MISHBENCH_OK)
    status = test_plugin::cuda_status(cudaMalloc(&self->kept, y_bytes), "cudaMalloc", message,
                                      size);
  if (status == MISHBENCH_OK)
    status = test_plugin::cuda_status(
        cudaMemset(self->last_hash, 0, sizeof(unsigned long long)), "cudaMemset", message, size);
  if (status != MISHBENCH_OK) {
    release(self);
    return status;
  }
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  const auto* self = static_cast<const HashCache*>(instance);
  const auto s = static_cast<cudaStream_t>(stream);
  const uint64_t x_count = uint64_t(self->shape.m * self->shape.k);
  if (test_plugin::skip_if_sample_unchanged(t->x, x_count, self->last_hash, self->skip, s,
                                            message, size) != MISHBENCH_OK)
    return MISHBENCH_ERROR;
  mishbench_tensors into_kept = *t;
  into_kept.y = self->kept;
  test_plugin::LayerVariant variant;
  variant.skip = self->skip;
  if (test_plugin::layer_with(self->shape, into_kept, variant, s, message, size) != MISHBENCH_OK)
    return MISHBENCH_ERROR;
  const size_t y_bytes = size_t(self->shape.m * self->shape.n) * sizeof(float);
  return test_plugin::cuda_status(
      cudaMemcpyAsync(t->y, self->kept, y_bytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync",
      message, size);
}

void teardown(void* instance) { release(static_cast<HashCache*>(instance)); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("device-hash-cache", MISHBENCH_DEVICE, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
