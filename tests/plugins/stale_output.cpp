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
  mishbench_tensors into_cache = *t;
  into_cache.y = self->y.data();
  test_plugin::compute_layer(*shape, into_cache);
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  const auto* self = static_cast<const Stale*>(instance);
  std::memcpy(t->y, self->y.data(), self->y.size() * sizeof(float));
  return MISHBENCH_OK;
}

void teardown(void* instance) { delete static_cast<Stale*>(instance); }

const mishbench_backend kBackends[] = {{"stale-output", "test plugin: replays setup's answer",
                                        "fp32", MISHBENCH_HOST, MISHBENCH_FP32, nullptr, setup,
                                        nullptr, run, nullptr, 0, nullptr, nullptr, nullptr,
                                        teardown}};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
