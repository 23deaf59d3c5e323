// Cheat: computes y once at setup and copies that same answer in every run. It passes the first
// verification; verifying again on new x must catch it.
#include <vector>

#include "test_plugin.h"

namespace {

struct Stale {
  mishbench_shape shape;
  std::vector<float> y;
};

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors* t,
          const char*, void*, char*, size_t) {
  auto* self = new Stale{*shape, std::vector<float>(size_t(shape->m * shape->n))};
  test_plugin::compute_layer_into(*shape, *t, self->y.data());
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  const auto* self = static_cast<const Stale*>(instance);
  std::memcpy(t->y, self->y.data(), self->y.size() * sizeof(float));
  return MISHBENCH_OK;
}

void teardown(void* instance) { delete static_cast<Stale*>(instance); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("stale-output", MISHBENCH_HOST, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
