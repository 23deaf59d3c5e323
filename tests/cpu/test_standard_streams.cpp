// stderr as the tool makes it (base/io/standard_streams.h): printing on it never fails, whatever
// descriptor 2 is (closed, a pipe without a reader), and a terminal there is still a terminal.
// Each case runs in a child process, whose descriptor 2 it may break.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>

#include "base/io/standard_streams.h"
#include "base/progress/progress.h"

namespace mish {
namespace {

// The exit status of `body` run in a child (0 when it returns true), or -1 when it died.
int in_child(const std::function<bool()>& body) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    bool ok = false;
    try {
      ok = body();
    } catch (...) {
    }
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(StandardStreams, PrintingOnAClosedStderrDoesNotThrow) {
  EXPECT_EQ(in_child([] {
              ::close(STDERR_FILENO);
              make_stderr_best_effort();
              fmt::print(stderr, "lost: {}\n", 42);
              return std::fprintf(stderr, "lost too\n") > 0;
            }),
            0);
}

TEST(StandardStreams, PrintingOnAPipeWithoutReaderDoesNotThrowNorKill) {
  EXPECT_EQ(in_child([] {
              int ends[2];
              if (::pipe(ends) != 0) return false;
              ::close(ends[0]);
              ::dup2(ends[1], STDERR_FILENO);
              make_stderr_best_effort();
              fmt::print(stderr, "{}\n", std::string(1 << 20, 'x'));  // EPIPE, SIGPIPE held back
              return true;
            }),
            0);
}

TEST(StandardStreams, ATerminalOnDescriptorTwoStillShowsProgress) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0)
    GTEST_SKIP() << "no pseudo-terminal here";
  const std::string terminal = ::ptsname(master);
  EXPECT_EQ(in_child([&] {
              const int fd = ::open(terminal.c_str(), O_WRONLY | O_NOCTTY);
              if (fd < 0) return false;
              ::dup2(fd, STDERR_FILENO);
              make_stderr_best_effort();
              return progress_allowed(true);
            }),
            0);
  ::close(master);
}

// What a child that writes to a pseudo-terminal on descriptor 2 put there; nullopt when there is
// no pseudo-terminal here or the child failed.
std::optional<std::string> on_a_terminal(const std::function<void()>& body) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) return std::nullopt;
  const std::string terminal = ::ptsname(master);
  const int status = in_child([&] {
    const int fd = ::open(terminal.c_str(), O_WRONLY | O_NOCTTY);
    if (fd < 0) return false;
    ::dup2(fd, STDERR_FILENO);
    make_stderr_best_effort();
    body();
    return true;
  });
  std::string shown;
  char buffer[4096];
  for (ssize_t got; (got = ::read(master, buffer, sizeof(buffer))) > 0;) shown.append(buffer, got);
  ::close(master);
  if (status != 0) return std::nullopt;
  return shown;
}

TEST(StandardStreams, OtherOutputErasesTheProgressBarFirst) {
  const std::optional<std::string> shown = on_a_terminal([] {
    ProgressBar bar("timing", true);
    bar.update(1.0);
    fmt::print(stderr, "warning: {}\n", "printed while the bar is drawn");
  });
  if (!shown) GTEST_SKIP() << "no pseudo-terminal here";
  EXPECT_NE(shown->find("100% ETA 0s\r\033[Kwarning: printed while the bar is drawn"),
            std::string::npos)
      << *shown;
}

}  // namespace
}  // namespace mish
