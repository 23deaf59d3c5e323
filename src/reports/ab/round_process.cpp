#include "reports/ab/round_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"

extern char** environ;

namespace mish {
namespace {

// Spawn attributes that put /dev/null on stdin and the log on stdout and stderr.
class Redirections {
 public:
  explicit Redirections(const std::string& log) {
    posix_spawn_file_actions_init(&actions_);
    posix_spawn_file_actions_addopen(&actions_, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions_, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions_, 1, 2);
  }
  ~Redirections() { posix_spawn_file_actions_destroy(&actions_); }
  Redirections(const Redirections&) = delete;
  Redirections& operator=(const Redirections&) = delete;
  const posix_spawn_file_actions_t* get() const { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

}  // namespace

RoundEnd run_round_process(const std::vector<std::string>& argv, const std::string& log) {
  std::vector<char*> words;
  std::vector<std::string> copies = argv;
  for (std::string& word : copies) words.push_back(word.data());
  words.push_back(nullptr);
  const Redirections redirections(log);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, words[0], redirections.get(), nullptr, words.data(), environ);
  if (error != 0)
    throw EnvironmentError(fmt::format("cannot start '{}': {}",
                                       for_terminal(argv[0], kPathEchoLimit),
                                       std::strerror(error)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  RoundEnd end;
  if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) end.signal_number = WTERMSIG(status);
  return end;
}

std::string last_log_line(const std::string& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

}  // namespace mish
