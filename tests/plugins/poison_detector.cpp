// Cheat: computes the layer only when y[0] is NaN, which is how y looks right after the tool
// poisons it for a verified run; otherwise it copies the output it kept from its last
// computation, taking only the time of a copy. When every call of run() is poisoned and verified
// alike, y[0] is NaN in every call, so it computes in every call: the cheat is neutralized.
// Verdict: ok, at a median no lower than half of honest-host's (neutralized).
#include <cmath>
#include <vector>

#include "test_plugin.h"

namespace {

struct Kept {
  mishbench_shape shape;
  std::vector<float> y;
  bool have = false;
};

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char*, size_t) {
  *instance = new Kept{*shape, std::vector<float>(size_t(shape->m * shape->n))};
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  auto* self = static_cast<Kept*>(instance);
  const size_t bytes = self->y.size() * sizeof(float);
  if (self->have && !std::isnan(t->y[0])) {
    std::memcpy(t->y, self->y.data(), bytes);  // "not being checked": replay
    return MISHBENCH_OK;
  }
  test_plugin::compute_layer(self->shape, *t);
  std::memcpy(self->y.data(), t->y, bytes);
  self->have = true;
  return MISHBENCH_OK;
}

void teardown(void* instance) { delete static_cast<Kept*>(instance); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("poison-detector", MISHBENCH_HOST, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
