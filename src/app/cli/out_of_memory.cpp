#include "app/cli/out_of_memory.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>

#include "base/common/errors.h"
#include "base/io/interrupt_registry.h"
#include "base/io/os_error.h"

namespace mish {
namespace {

// Composed before memory runs out: the handler allocates nothing of its own.
char line_text[1024];
size_t line_length = 0;
std::terminate_handler previous_handler = nullptr;

bool out_of_memory() {
  const std::exception_ptr current = std::current_exception();
  if (!current) return false;
  try {
    std::rethrow_exception(current);  // the exception itself, from the emergency pool if need be
  } catch (const std::bad_alloc&) {
    return true;
  } catch (...) {
  }
  return false;
}

[[noreturn]] void on_terminate() {
  if (out_of_memory()) {
    clean_up_outputs();
    write_fully(STDERR_FILENO, line_text, line_length);
    ::_exit(kExitEnvironment);
  }
  if (previous_handler != nullptr) previous_handler();
  std::abort();
}

}  // namespace

void exit_3_when_out_of_memory(std::string_view line) {
  line_length = std::min(line.size(), sizeof(line_text) - 1);
  std::memcpy(line_text, line.data(), line_length);
  line_text[line_length++] = '\n';
  static bool installed = false;
  if (installed) return;
  previous_handler = std::set_terminate(on_terminate);
  installed = true;
}

}  // namespace mish
