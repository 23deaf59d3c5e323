// Noise: computes y honestly but prints to stdout in setup() and run(), which must not corrupt
// the tool's own output (its report on stdout, a worker's channel).
#include "test_plugin.h"

namespace {

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors* t,
          const char* options, void* stream, char* message, size_t size) {
  std::printf("prints-stdout: setup() of a %lldx%lldx%lld problem\n",
              static_cast<long long>(shape->m), static_cast<long long>(shape->n),
              static_cast<long long>(shape->k));
  std::fflush(stdout);
  return test_plugin::setup_shape(instance, shape, t, options, stream, message, size);
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  std::printf("prints-stdout: run()\n");
  std::fflush(stdout);
  return test_plugin::run_honest_host(instance, t, stream, message, size);
}

const mishbench_backend kBackends[] = {test_plugin::backend_of(
    "prints-stdout", MISHBENCH_HOST, setup, run, test_plugin::teardown_shape)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
