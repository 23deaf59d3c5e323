// Cheat: hashes 64 elements of x sampled at evenly spaced positions and, while that hash is the
// one it last computed for, copies the output it kept instead of computing: a series of runs on
// unchanged x costs a copy each. When every call gets x with fresh contents, the hash changes in
// every call and it computes in every call: the cheat is neutralized.
// Verdict: ok, at a median no lower than half of honest-host's (neutralized).
#include <vector>

#include "test_plugin.h"

namespace {

constexpr int kSamples = 64;

struct ContentCache {
  mishbench_shape shape;
  std::vector<float> y;
  uint64_t hash = 0;
  bool have = false;
};

// FNV-1a over the bits of kSamples elements of x, evenly spaced over all of it.
uint64_t sample_hash(const float* x, uint64_t count) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (int i = 0; i < kSamples; ++i) {
    uint32_t bits;
    std::memcpy(&bits, x + (count - 1) * uint64_t(i) / (kSamples - 1), sizeof(bits));
    hash = (hash ^ bits) * 0x100000001b3ull;
  }
  return hash;
}

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char*, size_t) {
  *instance = new ContentCache{*shape, std::vector<float>(size_t(shape->m * shape->n))};
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  auto* self = static_cast<ContentCache*>(instance);
  const uint64_t hash = sample_hash(t->x, uint64_t(self->shape.m * self->shape.k));
  if (!self->have || hash != self->hash) {
    test_plugin::compute_layer_into(self->shape, *t, self->y.data());
    self->hash = hash;
    self->have = true;
  }
  std::memcpy(t->y, self->y.data(), self->y.size() * sizeof(float));
  return MISHBENCH_OK;
}

void teardown(void* instance) { delete static_cast<ContentCache*>(instance); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("content-cache", MISHBENCH_HOST, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
