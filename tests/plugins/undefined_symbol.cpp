// Load failure: refers to a function no library defines, so dlopen(RTLD_NOW) fails. Built
// without --no-undefined, which would have caught it at link time.
#include "test_plugin.h"

extern "C" void mishtest_function_nobody_defines();

namespace {

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  mishtest_function_nobody_defines();
  return test_plugin::run_honest_host(instance, t, stream, message, size);
}

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("undefined-symbol", MISHBENCH_HOST, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
