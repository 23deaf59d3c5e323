// Changes the working folder: the library's own initialization (a static constructor, run by
// dlopen) calls chdir("/"). Loaded into the tool (--isolate none), a relative --json or --dump
// would then name a file under / rather than where the user ran mishbench.
#include <unistd.h>

#include "test_plugin.h"

namespace {

struct ChangesFolderWhenLoaded {
  ChangesFolderWhenLoaded() {
    if (::chdir("/") != 0) return;
  }
} changes_folder_when_loaded;

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("changes-folder", MISHBENCH_HOST, test_plugin::run_honest_host)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
