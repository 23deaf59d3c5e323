// Loads a plugin library as mishbench does and prints what the loader recorded, one field a
// line; exits 2 with the loader's message when it refuses the library. The install test runs it
// on a plugin built outside this tree against the installed package.
#include <fmt/format.h>

#include "backends/plugins/plugin_library.h"
#include "base/common/errors.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: {} LIBRARY\n", argv[0]);
    return mish::kExitUsage;
  }
  try {
    const auto library = mish::load_plugin(argv[1]);
    fmt::print("path {}\nsha256 {}\nabi_version {}\nbackends {}\nbuild_info {}\n",
               library->path(), library->sha256(), library->abi_version(),
               fmt::join(library->backend_names(), " "), library->build_info());
    return mish::kExitOk;
  } catch (const mish::UsageError& error) {
    fmt::print(stderr, "error: {}\n", error.what());
    return mish::kExitUsage;
  }
}
