// Crash: the library's own initialization (a static constructor, run by dlopen) writes to an
// unmapped address (SIGSEGV), before mishbench can call anything in it.
#include <cstdint>

#include "test_plugin.h"

namespace {

struct CrashesWhenLoaded {
  CrashesWhenLoaded() {
    volatile uintptr_t address = 16;  // volatile: the compiler cannot see (and trap) a null store
    *reinterpret_cast<volatile int*>(address) = 1;
  }
} crashes_when_loaded;

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("crash-at-load", MISHBENCH_HOST, test_plugin::run_honest_host)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
