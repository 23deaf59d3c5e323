#include "exec/worker/worker_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"
#include "core/backend/backend.h"
#include "core/timing/graph.h"

extern char** environ;

namespace mish {
namespace {

constexpr int kWorkerSocketFd = 3;
constexpr size_t kOutputKept = 8 << 10;  // bytes of the worker's output kept for messages

// The workers alive, by pid. Held while a worker is started, so that end_strays never takes one
// being born for a stray, and while strays are ended.
std::mutex workers_mutex;
std::set<pid_t> live_workers;

// This process's children, as /proc lists them (the parent's pid is the 4th field of stat,
// after a name in parentheses that may hold anything).
std::vector<pid_t> children() {
  std::vector<pid_t> found;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return found;
  const pid_t self = ::getpid();
  while (const dirent* entry = ::readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    char path[64], text[512] = {};
    std::snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    std::FILE* stat = std::fopen(path, "re");
    if (stat == nullptr) continue;  // gone meanwhile
    const size_t length = std::fread(text, 1, sizeof(text) - 1, stat);
    std::fclose(stat);
    text[length] = '\0';
    const char* after_name = std::strrchr(text, ')');
    char state = 0;
    long parent = 0;
    if (after_name != nullptr && std::sscanf(after_name + 1, " %c %ld", &state, &parent) == 2 &&
        parent == self)
      found.push_back(static_cast<pid_t>(pid));
  }
  ::closedir(proc);
  return found;
}

// Ends and reaps every child of this process that is not a live worker. This process is a
// subreaper (PR_SET_CHILD_SUBREAPER), so what a worker leaves behind when it ends (a plugin's
// or solution's helper that left its session with setsid, a daemon it started) is handed to us
// rather than to init: each such stray, and in turn each stray's own children, is ended here.
// A process stuck in the kernel (uninterruptible) is left after a few seconds, as a zombie to
// reap next time.
void end_strays() {
  const std::lock_guard<std::mutex> lock(workers_mutex);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<pid_t> strays;
    for (pid_t pid : children())
      if (live_workers.count(pid) == 0) strays.push_back(pid);
    if (strays.empty()) return;
    for (pid_t pid : strays) ::kill(pid, SIGKILL);
    for (pid_t pid : strays)
      while (::waitpid(pid, nullptr, WNOHANG) == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace

WorkerNeverStarted::WorkerNeverStarted(std::string program_path, std::string how,
                                       std::string output)
    : BackendError(fmt::format("'{}' ended ({}) before the worker started{}",
                               for_terminal(program_path, kPathEchoLimit), how,
                               output.empty() ? "" : "; its last output: " + output)),
      program(std::move(program_path)),
      end(std::move(how)),
      last_output(std::move(output)) {}

WorkerProcess::WorkerProcess(const std::vector<std::string>& argv, std::string label)
    : label_(std::move(label)), program_(argv.empty() ? "" : argv[0]) {
  // What a worker leaves behind comes back to this process, to be ended (end_strays).
  static const bool subreaper = ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
  (void)subreaper;
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
  int spawned;
  {
    const std::lock_guard<std::mutex> lock(workers_mutex);
    spawned = ::posix_spawn(&pid_, pointers[0], &actions, &attributes, pointers.data(), environ);
    if (spawned == 0) live_workers.insert(pid_);
  }
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
  channel_->watch(pid_);  // its end is seen even when a descendant keeps the socket open
  if (::pipe2(stop_reading_, O_CLOEXEC) != 0) stop_reading_[0] = stop_reading_[1] = -1;
  output_reader_ = std::thread([this, fd = output[0]] { capture_output(fd); });
}

WorkerProcess::~WorkerProcess() {
  if (!dead_) {
    channel_->send({{"op", "exit"}});
    Channel::Received ignored;
    channel_->receive(ignored, std::chrono::milliseconds(1000));
    kill();
  }
  // The worker and what it left are gone; whoever else holds its output pipe (a process outside
  // this tree it was passed to) is not waited for.
  if (stop_reading_[1] >= 0) {
    const char stop = 1;
    while (::write(stop_reading_[1], &stop, 1) < 0 && errno == EINTR) {
    }
  }
  if (output_reader_.joinable()) output_reader_.join();
  for (int fd : stop_reading_)
    if (fd >= 0) ::close(fd);
}

void WorkerProcess::capture_output(int fd) {
  char data[4096];
  bool stopping = false;                  // asked to stop: only what is there already is read
  size_t left_to_read = 2 * kOutputKept;  // once stopping (a stranger may write on)
  while (true) {
    pollfd ready[2] = {{fd, POLLIN, 0}, {stop_reading_[0], POLLIN, 0}};  // a negative fd: ignored
    const int count = ::poll(ready, stopping ? 1 : 2, stopping ? 0 : -1);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) break;
    if (!stopping && ready[1].revents != 0) {
      stopping = true;
      continue;
    }
    if (ready[0].revents == 0) break;  // stopping, and nothing more is there
    const ssize_t n = ::read(fd, data, sizeof(data));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    {
      std::lock_guard<std::mutex> lock(output_mutex_);
      output_.append(data, static_cast<size_t>(n));
      if (output_.size() > 2 * kOutputKept) output_.erase(0, output_.size() - kOutputKept);
    }
    if (stopping && (left_to_read -= std::min(left_to_read, size_t(n))) == 0) break;
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
  reaped(status);
}

void WorkerProcess::reaped(int status) {
  exit_status_ = status;
  dead_ = true;
  {
    const std::lock_guard<std::mutex> lock(workers_mutex);
    live_workers.erase(pid_);
  }
  end_strays();  // its whole tree ends with it
}

std::string WorkerProcess::describe_exit() {
  if (!dead_) {
    // It closed its socket: give it a moment to finish dying, then collect it.
    int status = 0;
    for (int i = 0; i < 50 && !dead_; ++i) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped(status);
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

// The last line the worker printed often says why (a Python traceback's last line, abort()).
std::string WorkerProcess::last_output_line() const {
  std::string tail = output_tail();
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  const size_t line = tail.rfind('\n');
  const std::string last = line == std::string::npos ? tail : tail.substr(line + 1);
  return last.empty() ? "" : for_terminal(last, 300);
}

void WorkerProcess::fail(const std::string& what) {
  const std::string last = last_output_line();
  throw BackendError(last.empty() ? what : fmt::format("{}; its last output: {}", what, last));
}

void WorkerProcess::ended(const std::string& what) {
  Channel::Received sent;
  while (!started_ && channel_->receive(sent, std::chrono::milliseconds(100)) ==
                          Channel::Status::message)
    started_ = true;
  if (!started_) throw WorkerNeverStarted(program_, describe_exit(), last_output_line());
  fail(what);
}

nlohmann::json WorkerProcess::request(const nlohmann::json& request, const WorkerStep& step,
                                      std::chrono::seconds silence_limit,
                                      const std::function<void(double)>& on_progress,
                                      const std::vector<int>& fds) {
  const std::string& during = step.name;
  if (dead_) fail(fmt::format("the worker is no longer running ({})", describe_exit()));
  if (!channel_->send(request, fds))
    ended(fmt::format("the worker ended before {} ({})", during, describe_exit()));
  while (true) {
    Channel::Received received;
    switch (channel_->receive(received, silence_limit)) {
      case Channel::Status::timeout:
        kill();
        fail(fmt::format("no answer after {} s in {}; the worker was killed",
                         silence_limit.count(), during));
      case Channel::Status::closed:
        ended(fmt::format("the worker died in {}: {}", during, describe_exit()));
      case Channel::Status::malformed:
        kill();
        fail(fmt::format("the worker sent {} in {}; it was killed", channel_->last_error(), during));
      case Channel::Status::message:
        break;
    }
    started_ = true;
    const nlohmann::json& reply = received.message;
    if (reply.contains("started")) continue;  // its first line
    if (reply.contains("progress")) {
      if (on_progress && reply["progress"].is_number()) on_progress(reply["progress"].get<double>());
      continue;
    }
    if (reply.value("ok", false)) return reply;
    const std::string error = reply.value("error", std::string("failed without a message"));
    const std::string kind = reply.value("kind", std::string());
    if (reply.value("sticky", false)) kill();  // its CUDA context is unusable
    if (kind == "usage") throw UsageError(error);  // says all it needs to (a library's defect)
    const std::string where =
        step.is_backend_call ? error : fmt::format("in {}: {}", during, error);
    if (kind == "graph") throw GraphCaptureError(where);
    throw BackendError(where);
  }
}

}  // namespace mish
