// Ends the process: the library's own initialization (a static constructor, run by dlopen) calls
// exit(0), before mishbench can call anything in it. Loaded into the tool (--isolate none), it
// would end the tool with status 0, no table and no report.
#include <cstdlib>

#include "test_plugin.h"

namespace {

struct ExitsWhenLoaded {
  ExitsWhenLoaded() { std::exit(0); }
} exits_when_loaded;

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("exits-at-load", MISHBENCH_HOST, test_plugin::run_honest_host)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
