// Hostile metadata: an honest host layer whose build-info string (MISHBENCH_PLUGIN_BUILD_INFO) is
// far longer than mishbench keeps and holds a line break, an escape sequence and a non-ASCII
// character: the report gets a bounded, printable copy. A plain MODULE library, since
// mishbench_add_plugin defines the string itself.
#include <cstring>

#include "test_plugin.h"

namespace {

constexpr size_t kLength = 5000;
constexpr char kStart[] = "-O3\n\x1b[31m\xc2\xb7";

const mishbench_backend kBackends[] = {test_plugin::shape_backend(
    "hostile-build-info", MISHBENCH_HOST, test_plugin::run_honest_host)};

}  // namespace

MISHBENCH_PLUGIN_EXPORT char mishbench_plugin_build_info[kLength + 1] = {};

namespace {

// Filled when the library is loaded, before mishbench reads it: kStart, then 'x' to kLength.
const bool kFilled = [] {
  std::memset(mishbench_plugin_build_info, 'x', kLength);
  std::memcpy(mishbench_plugin_build_info, kStart, sizeof(kStart) - 1);
  return true;
}();

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
