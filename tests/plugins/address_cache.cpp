// Cheat: computes the layer once per x pointer and, whenever run() gets an x it has seen at
// that address before, copies the output it kept for it: the tool reuses its buffers, so after
// the first call every call costs a copy. New contents in the same buffer get the old answer.
// Verdict: mismatch ("did not match"): a call's output is checked against that call's x.
#include <map>
#include <vector>

#include "test_plugin.h"

namespace {

constexpr size_t kMaxKept = 8;  // outputs kept at most; x at further addresses is computed

struct AddressCache {
  mishbench_shape shape;
  std::map<const float*, std::vector<float>> kept;
};

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char*, size_t) {
  *instance = new AddressCache{*shape, {}};
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  auto* self = static_cast<AddressCache*>(instance);
  const size_t count = size_t(self->shape.m * self->shape.n);
  const auto known = self->kept.find(t->x);
  if (known != self->kept.end()) {
    std::memcpy(t->y, known->second.data(), count * sizeof(float));
    return MISHBENCH_OK;
  }
  test_plugin::compute_layer(self->shape, *t);
  if (self->kept.size() < kMaxKept)
    self->kept.emplace(t->x, std::vector<float>(t->y, t->y + count));
  return MISHBENCH_OK;
}

void teardown(void* instance) { delete static_cast<AddressCache*>(instance); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("address-cache", MISHBENCH_HOST, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
