#include "app/cli/exit_guard.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>

#include "base/common/errors.h"
#include "base/io/interrupt_registry.h"
#include "base/io/os_error.h"

namespace mish {
namespace {

std::atomic<bool> exit_allowed{true};

extern "C" void on_exit_call() {
  if (exit_allowed.load()) return;
  clean_up_outputs();
  static const char kLine[] =
      "mishbench: something in this process (a plugin loaded with --isolate none?) called exit() "
      "before mishbench finished; no result is reported\n";
  write_fully(STDERR_FILENO, kLine, sizeof(kLine) - 1);
  ::_exit(kExitFailure);
}

}  // namespace

void guard_exits() {
  static const bool registered =
      std::atexit(on_exit_call) == 0 && std::at_quick_exit(on_exit_call) == 0;
  (void)registered;
  exit_allowed = false;
}

void allow_exit() { exit_allowed = true; }

}  // namespace mish
