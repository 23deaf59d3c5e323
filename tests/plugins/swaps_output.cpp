// Race: computes honestly, but in setup() puts a symbolic link where the run will write an
// output, after mishbench checked its outputs at start-up: options {"link": PATH, "to": TARGET}
// make PATH a link to TARGET (PATH replaced if it exists).
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <string>

#include "test_plugin.h"

namespace {

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*,
          const char* options_json, void*, char* message, size_t size) {
  const nlohmann::json options = nlohmann::json::parse(options_json, nullptr, false);
  if (!options.is_object() || !options.contains("link") || !options.contains("to"))
    return test_plugin::fail(message, size, "give the options link and to");
  const std::string link = options["link"].get<std::string>();
  ::unlink(link.c_str());
  if (::symlink(options["to"].get<std::string>().c_str(), link.c_str()) != 0)
    return test_plugin::fail(message, size, "symlink failed");
  *instance = new mishbench_shape(*shape);
  return MISHBENCH_OK;
}

const mishbench_backend kBackends[] = {test_plugin::backend_of(
    "swaps-output", MISHBENCH_HOST, setup, test_plugin::run_honest_host,
    test_plugin::teardown_shape)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
