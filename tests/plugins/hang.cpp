// Hang: run() sleeps forever. Only a watchdog ends it.
#include <unistd.h>

#include "test_plugin.h"

namespace {

int run(void*, const mishbench_tensors*, void*, char*, size_t) {
  for (;;) sleep(3600);
}

const mishbench_backend kBackends[] = {test_plugin::shape_backend("hang", MISHBENCH_HOST, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
