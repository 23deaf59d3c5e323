// The outputs being written right now, as the signal handler of install_interrupt_cleanup()
// sees them: for each, a temporary file to remove or an appended file to cut back, and the line
// to print.
#pragma once
#include <sys/types.h>

#include <csignal>
#include <string>
#include <string_view>

namespace mish {

struct Registration {
  std::string temporary;  // removed on interrupt (in folder_fd); empty when written in place
  int folder_fd = -1;     // the folder `temporary` is in
  int append_fd = -1;     // with restore_size >= 0: cut back to that length on interrupt
  off_t restore_size = -1;
};

// Returns a slot for unregister_output; throws UsageError when the temporary path is longer than
// a path can be, EnvironmentError when more outputs than the list holds are open at once.
int register_output(const Registration& registration, std::string_view what, std::string_view path);
void unregister_output(int slot) noexcept;

// What the signal handler does to every output still registered (temporary files removed,
// appends cut back), without a word: for a process ending otherwise (out of memory). Async-signal
// safe, and allocates nothing.
void clean_up_outputs() noexcept;

// Holds back the signals that end the process for its lifetime, so that a rename and its
// unregistering happen together: a signal after the rename cannot claim that nothing was written.
class InterruptsHeld {
 public:
  InterruptsHeld();
  ~InterruptsHeld();
  InterruptsHeld(const InterruptsHeld&) = delete;
  InterruptsHeld& operator=(const InterruptsHeld&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace mish
