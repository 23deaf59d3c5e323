// planted-slowdown: the honest layer on the device (device_layer.h), then a kernel that spins
// for spin_us microseconds on the same stream in every run: a slowdown planted on purpose
// (describe() says so), for measuring how often a gate detects a 2 % or 5 % slowdown.
#include "device_layer.h"
#include "planted_spin.h"

namespace {

__device__ uint64_t global_ns() {
  uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// One thread waits until `ns` nanoseconds have passed on the device's global timer.
__global__ void spin(uint64_t ns) {
  const uint64_t start = global_ns();
  while (global_ns() - start < ns) {
  }
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  const test_plugin::Planted& self = test_plugin::planted(instance);
  const auto on = static_cast<cudaStream_t>(stream);
  if (test_plugin::enqueue_layer(self.shape, *t, on, message, size) != MISHBENCH_OK)
    return MISHBENCH_ERROR;
  if (self.spin_us <= 0) return MISHBENCH_OK;
  spin<<<1, 1, 0, on>>>(static_cast<uint64_t>(self.spin_us * 1000.0));
  return test_plugin::cuda_status(cudaGetLastError(), "spin launch", message, size);
}

const mishbench_backend kBackends[] = {test_plugin::planted_backend(
    "planted-slowdown",
    "test plugin: mishbench's naive kernel plus a planted spin kernel of spin_us us per run (a "
    "deliberate slowdown)",
    MISHBENCH_DEVICE, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
