// Cheat: tells timed runs from verified ones by counting. It computes its first 2 calls (the
// first verification and one more) and every call that comes more than 200 ms after the
// previous one returned (a verification after a timed series); every other call gets the output
// of its last computation, a copy. When every call is verified, the copies are checked too.
// Verdict: mismatch ("did not match").
#include <chrono>
#include <vector>

#include "test_plugin.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr long kHonestCalls = 2;
constexpr auto kPause = std::chrono::milliseconds(200);

struct CallCount {
  mishbench_shape shape;
  std::vector<float> y;
  long calls = 0;
  Clock::time_point last_return;
};

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char*, size_t) {
  *instance = new CallCount{*shape, std::vector<float>(size_t(shape->m * shape->n))};
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  auto* self = static_cast<CallCount*>(instance);
  const size_t bytes = self->y.size() * sizeof(float);
  ++self->calls;
  if (self->calls <= kHonestCalls || Clock::now() - self->last_return > kPause) {
    test_plugin::compute_layer(self->shape, *t);
    std::memcpy(self->y.data(), t->y, bytes);
  } else {
    std::memcpy(t->y, self->y.data(), bytes);
  }
  self->last_return = Clock::now();
  return MISHBENCH_OK;
}

void teardown(void* instance) { delete static_cast<CallCount*>(instance); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("call-count", MISHBENCH_HOST, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
