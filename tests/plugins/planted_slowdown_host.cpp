// planted-slowdown-host: the honest layer on the host, then a busy wait of spin_us microseconds
// in every run: a slowdown planted on purpose (describe() says so), for checking that a gate
// detects one and for calibrating it. The host twin of planted_slowdown.cu; runs without a GPU.
#include <chrono>

#include "planted_spin.h"

namespace {

int run(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  const test_plugin::Planted& self = test_plugin::planted(instance);
  test_plugin::compute_layer(self.shape, *t);
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration<double, std::micro>(self.spin_us);
  while (std::chrono::steady_clock::now() < until) {
  }
  return MISHBENCH_OK;
}

const mishbench_backend kBackends[] = {test_plugin::planted_backend(
    "planted-slowdown-host",
    "test plugin: fp32 loops plus a planted busy wait of spin_us us per run (a deliberate "
    "slowdown)",
    MISHBENCH_HOST, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
