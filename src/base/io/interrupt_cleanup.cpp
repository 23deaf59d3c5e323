// install_interrupt_cleanup() and the list its handler reads. The handler may only use
// async-signal-safe calls (unlinkat, ftruncate, write, sigaction, sigprocmask, raise), so
// everything it prints is composed when an output is registered, and the list is a fixed array
// of slots claimed with atomic compare-and-swap, never allocated.
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "base/io/interrupt_registry.h"
#include "base/io/os_error.h"
#include "base/io/output_file.h"

namespace mish {
namespace {

// Interrupts, which the handler reports even when nothing is being written.
constexpr int kInterruptSignals[] = {SIGINT, SIGTERM, SIGHUP};
// Every other signal whose default action ends the process and that a handler may catch (with
// SIGRTMIN to SIGRTMAX): whichever ends the tool, what it was writing is cleaned up.
constexpr int kOtherEndingSignals[] = {SIGQUIT, SIGILL,  SIGTRAP,   SIGABRT, SIGBUS,
                                       SIGFPE,  SIGUSR1, SIGSEGV,   SIGUSR2, SIGPIPE,
                                       SIGALRM, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM,
                                       SIGPROF, SIGIO,   SIGPWR,    SIGSYS};

bool is_interrupt(int signal_number) {
  for (int interrupt : kInterruptSignals)
    if (interrupt == signal_number) return true;
  return false;
}

enum SlotState : int { kFree = 0, kFilling = 1, kLive = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  char temporary[PATH_MAX] = {};
  int folder_fd = -1;
  int append_fd = -1;
  off_t restore_size = -1;
  char line[2048] = {};  // "mishbench: interrupted while writing ...\n"
  size_t line_length = 0;
};

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads slot states");

constexpr int kSlots = 16;  // outputs open at the same time; the tool needs two or three
Slot slots[kSlots];

void write_to_stderr(const char* text, size_t length) {
  while (length > 0) {
    const ssize_t written = ::write(STDERR_FILENO, text, length);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    text += written;
    length -= static_cast<size_t>(written);
  }
}

// Removes the slot's temporary file, or cuts its appended file back.
void clean_up(Slot& slot) {
  if (slot.temporary[0] != '\0') ::unlinkat(slot.folder_fd, slot.temporary, 0);
  if (slot.restore_size >= 0) {
    while (::ftruncate(slot.append_fd, slot.restore_size) != 0 && errno == EINTR) {
    }
  }
}

extern "C" void on_interrupt(int signal_number) {
  const int saved_errno = errno;
  bool reported = false;
  for (Slot& slot : slots) {
    if (slot.state.load(std::memory_order_acquire) != kLive) continue;
    clean_up(slot);
    write_to_stderr(slot.line, slot.line_length);
    reported = true;
  }
  if (!reported && is_interrupt(signal_number)) {
    static const char kLine[] = "mishbench: interrupted\n";
    write_to_stderr(kLine, sizeof(kLine) - 1);
  }
  // Die of the same signal, so that the parent (a shell, CI) sees what happened.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, nullptr);
  sigset_t this_signal;
  sigemptyset(&this_signal);
  sigaddset(&this_signal, signal_number);
  sigprocmask(SIG_UNBLOCK, &this_signal, nullptr);
  errno = saved_errno;
  raise(signal_number);
}

sigset_t ending_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int signal_number : kInterruptSignals) sigaddset(&set, signal_number);
  for (int signal_number : kOtherEndingSignals) sigaddset(&set, signal_number);
  for (int signal_number = SIGRTMIN; signal_number <= SIGRTMAX; ++signal_number)
    sigaddset(&set, signal_number);
  return set;
}

}  // namespace

int register_output(const Registration& registration, std::string_view what,
                    std::string_view path) {
  if (registration.temporary.size() >= sizeof(Slot::temporary))
    throw_os_error(ENAMETOOLONG,
                   fmt::format("cannot write {} '{}'", what, for_terminal(path, kPathEchoLimit)));
  const char* consequence = !registration.temporary.empty()  ? "nothing was written"
                            : registration.restore_size >= 0 ? "nothing was appended"
                                                             : "what it received is incomplete";
  const std::string line = fmt::format("mishbench: interrupted while writing {} '{}'; {}\n", what,
                                       for_terminal(path, kPathEchoLimit), consequence);
  for (int index = 0; index < kSlots; ++index) {
    Slot& slot = slots[index];
    int expected = kFree;
    if (!slot.state.compare_exchange_strong(expected, kFilling, std::memory_order_acquire))
      continue;
    std::memcpy(slot.temporary, registration.temporary.c_str(), registration.temporary.size() + 1);
    slot.folder_fd = registration.folder_fd;
    slot.append_fd = registration.append_fd;
    slot.restore_size = registration.restore_size;
    slot.line_length = std::min(line.size(), sizeof(slot.line));
    std::memcpy(slot.line, line.data(), slot.line_length);
    slot.line[slot.line_length - 1] = '\n';  // a cut line still ends the line
    slot.state.store(kLive, std::memory_order_release);
    return index;
  }
  throw EnvironmentError(fmt::format("cannot write {} '{}': more than {} outputs open at once",
                                     what, for_terminal(path, kPathEchoLimit), kSlots));
}

void clean_up_outputs() noexcept {
  const int saved_errno = errno;
  for (Slot& slot : slots)
    if (slot.state.load(std::memory_order_acquire) == kLive) clean_up(slot);
  errno = saved_errno;
}

void unregister_output(int slot) noexcept {
  if (slot >= 0 && slot < kSlots) slots[slot].state.store(kFree, std::memory_order_release);
}

InterruptsHeld::InterruptsHeld() {
  const sigset_t set = ending_set();
  pthread_sigmask(SIG_BLOCK, &set, &previous_);
}

InterruptsHeld::~InterruptsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

void install_interrupt_cleanup() {
  static std::atomic<bool> installed{false};
  if (installed.exchange(true)) return;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  action.sa_mask = ending_set();  // one signal at a time: no slot is cleaned twice
  for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
    if (sigismember(&action.sa_mask, signal_number) != 1) continue;
    struct sigaction current {};
    sigaction(signal_number, nullptr, &current);
    // Ignored (nohup, a background job) or handled by someone else: left as it is.
    if ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL) continue;
    sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace mish
