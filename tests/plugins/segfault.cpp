// Crash: run() writes to an unmapped address (SIGSEGV).
#include <cstdint>

#include "test_plugin.h"

namespace {

int run(void*, const mishbench_tensors*, void*, char*, size_t) {
  volatile uintptr_t address = 16;  // volatile: the compiler cannot see (and trap) a null store
  *reinterpret_cast<volatile int*>(address) = 1;
  return MISHBENCH_OK;
}

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("segfault", MISHBENCH_HOST, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
