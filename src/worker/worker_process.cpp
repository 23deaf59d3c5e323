#include "worker/worker_process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "backends/backend.h"
#include "common/errors.h"
#include "common/untrusted_text.h"
#include "timing/graph.h"

extern char** environ;

namespace mish {
namespace {

constexpr int kWorkerSocketFd = 3;
constexpr size_t kOutputKept = 8 << 10;  // bytes of the worker's output kept for messages

}  // namespace

WorkerProcess::WorkerProcess(const std::vector<std::string>& argv, std::string label)
    : label_(std::move(label)) {
  int sockets[2], output[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0)
    throw EnvironmentError(fmt::format("cannot create a socket for a worker: {}",
                                       std::strerror(errno)));
  if (::pipe2(output, O_CLOEXEC) != 0) {
    ::close(sockets[0]);
    ::close(sockets[1]);
    throw EnvironmentError(fmt::format("cannot create a pipe for a worker: {}", std::strerror(errno)));
  }
  // The child's end must not already be descriptor 3: dup2 onto itself would keep close-on-exec.
  if (sockets[1] == kWorkerSocketFd) {
    const int moved = ::fcntl(sockets[1], F_DUPFD_CLOEXEC, 10);
    ::close(sockets[1]);
    sockets[1] = moved;
  }
  std::vector<std::string> args = argv;
  args.push_back("--socket-fd");
  args.push_back(std::to_string(kWorkerSocketFd));
  std::vector<char*> pointers;
  for (std::string& arg : args) pointers.push_back(arg.data());
  pointers.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, output[1], 1);
  posix_spawn_file_actions_adddup2(&actions, output[1], 2);
  posix_spawn_file_actions_adddup2(&actions, sockets[1], kWorkerSocketFd);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setpgroup(&attributes, 0);  // its own group: killed with its children
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
  const int spawned = ::posix_spawn(&pid_, pointers[0], &actions, &attributes, pointers.data(),
                                    environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(sockets[1]);
  ::close(output[1]);
  if (spawned != 0) {
    ::close(sockets[0]);
    ::close(output[0]);
    dead_ = true;
    throw EnvironmentError(fmt::format("cannot start the worker '{}': {}",
                                       for_terminal(args[0], kPathEchoLimit),
                                       std::strerror(spawned)));
  }
  channel_ = std::make_unique<Channel>(sockets[0]);
  output_reader_ = std::thread([this, fd = output[0]] { capture_output(fd); });
}

WorkerProcess::~WorkerProcess() {
  if (!dead_) {
    channel_->send({{"op", "exit"}});
    Channel::Received ignored;
    channel_->receive(ignored, std::chrono::milliseconds(1000));
    kill();
  }
  if (output_reader_.joinable()) output_reader_.join();
}

void WorkerProcess::capture_output(int fd) {
  char data[4096];
  while (true) {
    const ssize_t n = ::read(fd, data, sizeof(data));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::lock_guard<std::mutex> lock(output_mutex_);
    output_.append(data, static_cast<size_t>(n));
    if (output_.size() > 2 * kOutputKept) output_.erase(0, output_.size() - kOutputKept);
  }
  ::close(fd);
}

std::string WorkerProcess::output_tail() const {
  std::lock_guard<std::mutex> lock(output_mutex_);
  return output_.size() > kOutputKept ? output_.substr(output_.size() - kOutputKept) : output_;
}

void WorkerProcess::kill() {
  if (pid_ <= 0 || dead_) return;
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exit_status_ = status;
  dead_ = true;
}

std::string WorkerProcess::describe_exit() {
  if (!dead_) {
    // It closed its socket: give it a moment to finish dying, then collect it.
    int status = 0;
    for (int i = 0; i < 50 && !dead_; ++i) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exit_status_ = status;
        dead_ = true;
      } else {
        ::usleep(20000);
      }
    }
    if (!dead_) kill();
  }
  if (WIFSIGNALED(exit_status_))
    return fmt::format("signal {} ({})", WTERMSIG(exit_status_), strsignal(WTERMSIG(exit_status_)));
  if (WIFEXITED(exit_status_)) return fmt::format("exit status {}", WEXITSTATUS(exit_status_));
  return "an unknown end";
}

void WorkerProcess::fail(const std::string& what) {
  // The last line the worker printed often says why (a Python traceback's last line, abort()).
  std::string tail = output_tail();
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  const size_t line = tail.rfind('\n');
  const std::string last = line == std::string::npos ? tail : tail.substr(line + 1);
  throw BackendError(last.empty() ? what
                                  : fmt::format("{}; its last output: {}", what, for_terminal(last, 300)));
}

nlohmann::json WorkerProcess::request(const nlohmann::json& request, const std::string& during,
                                      std::chrono::seconds silence_limit,
                                      const std::function<void(double)>& on_progress,
                                      const std::vector<int>& fds) {
  if (dead_) fail(fmt::format("the worker is no longer running ({})", describe_exit()));
  if (!channel_->send(request, fds))
    fail(fmt::format("the worker ended before {} ({})", during, describe_exit()));
  while (true) {
    Channel::Received received;
    switch (channel_->receive(received, silence_limit)) {
      case Channel::Status::timeout:
        kill();
        fail(fmt::format("no answer after {} s in {}; the worker was killed",
                         silence_limit.count(), during));
      case Channel::Status::closed:
        fail(fmt::format("the worker died in {}: {}", during, describe_exit()));
      case Channel::Status::malformed:
        kill();
        fail(fmt::format("the worker sent {} in {}; it was killed", channel_->last_error(), during));
      case Channel::Status::message:
        break;
    }
    const nlohmann::json& reply = received.message;
    if (reply.contains("progress")) {
      if (on_progress && reply["progress"].is_number()) on_progress(reply["progress"].get<double>());
      continue;
    }
    if (reply.value("ok", false)) return reply;
    const std::string error = reply.value("error", std::string("failed without a message"));
    const std::string kind = reply.value("kind", std::string());
    if (reply.value("sticky", false)) kill();  // its CUDA context is unusable
    if (kind == "usage") throw UsageError(error);  // says all it needs to (a library's defect)
    const std::string where = fmt::format("in {}: {}", during, error);
    if (kind == "graph") throw GraphCaptureError(where);
    throw BackendError(where);
  }
}

}  // namespace mish
