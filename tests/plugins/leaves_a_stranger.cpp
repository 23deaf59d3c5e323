// Stranger: setup() starts a grandchild of mishbench that leaves the worker's session (setsid),
// so a kill of the worker's process group misses it, and keeps the worker's stdout, stderr and
// socket open forever. Options: {"pid_file": PATH} (where it writes the grandchild's pid),
// {"then": "crash"} (the worker then dies in run(), while the grandchild holds its socket).
#include <signal.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

#include "test_plugin.h"

namespace {

bool crash_in_run = false;

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*,
          const char* options_json, void*, char* message, size_t size) {
  const nlohmann::json options = nlohmann::json::parse(options_json, nullptr, false);
  if (!options.is_object() || !options.contains("pid_file"))
    return test_plugin::fail(message, size, "give the option pid_file");
  crash_in_run = options.value("then", std::string()) == "crash";
  const std::string pid_file = options["pid_file"].get<std::string>();
  std::fflush(nullptr);
  const pid_t stranger = ::fork();
  if (stranger == 0) {
    ::setsid();
    for (;;) ::pause();
  }
  if (std::FILE* file = std::fopen(pid_file.c_str(), "w")) {
    std::fprintf(file, "%d\n", static_cast<int>(stranger));
    std::fclose(file);
  }
  *instance = new mishbench_shape(*shape);
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  if (crash_in_run) ::raise(SIGSEGV);
  return test_plugin::run_honest_host(instance, t, stream, message, size);
}

const mishbench_backend kBackends[] = {test_plugin::backend_of(
    "leaves-a-stranger", MISHBENCH_HOST, setup, run, test_plugin::teardown_shape)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
