// Load failure: the entry point is exported under another name.
#include "test_plugin.h"

namespace {

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("no-entry", MISHBENCH_HOST, test_plugin::run_honest_host)};
const mishbench_plugin kPlugin = test_plugin::table_of(1, kBackends);

}  // namespace

extern "C" __attribute__((visibility("default"))) const mishbench_plugin* mishbench_entry(void) {
  return &kPlugin;
}
