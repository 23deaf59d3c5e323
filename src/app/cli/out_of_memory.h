// Host memory running out where no handler can take the std::bad_alloc: in a destructor that
// allocates while the stack unwinds from a first bad_alloc (nlohmann::json frees a large document
// with a work list it allocates), in a noexcept function, in a thread. std::terminate would abort
// (exit 134, "terminate called after throwing an instance of 'std::bad_alloc'"); instead, the
// outputs being written are cleaned up as on a signal, one line says that host memory ran out,
// and the process exits 3, as every command's own handler of bad_alloc does.
#pragma once
#include <string_view>

namespace mish {

// Installs the terminate handler (once), with `line` as what it prints (a newline is added);
// called again, it only changes the line. Any other reason to terminate is left to the handler
// that was there before.
void exit_3_when_out_of_memory(std::string_view line);

}  // namespace mish
