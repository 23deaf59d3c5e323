#include "mishbench_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

namespace mish {
namespace {

std::string take_file(const std::string& path) {
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::remove(path.c_str());
  return text;
}

}  // namespace

ProcessResult run_mishbench(const std::vector<std::string>& args, const std::string& scratch,
                            const ProcessOptions& options) {
  const std::string captured_out = scratch + "/.mishbench-stdout",
                    captured_err = scratch + "/.mishbench-stderr";
  const std::string& out_path = options.stdout_path.empty() ? captured_out : options.stdout_path;
  const std::string& err_path = options.stderr_path.empty() ? captured_err : options.stderr_path;
  std::vector<char*> argv;
  std::string program = MISHBENCH_BINARY;
  argv.push_back(program.data());
  std::vector<std::string> copies = args;
  for (std::string& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);

  int reader_gone[2] = {-1, -1};
  if (options.stdout_reader_gone && ::pipe(reader_gone) != 0) return {};
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = options.stdout_reader_gone ? reader_gone[1]
                    : options.stdout_path.empty()
                        ? ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644)
                        : ::open(out_path.c_str(), O_WRONLY);
    if (options.stdout_reader_gone) ::close(reader_gone[0]);
    const int err = options.stderr_path.empty()
                        ? ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644)
                        : ::open(err_path.c_str(), O_WRONLY);
    if (in < 0 || out < 0 || err < 0 || ::chdir(options.working_folder.empty() ? MISHBENCH_SOURCE_DIR
                                                           : options.working_folder.c_str()) != 0) ::_exit(126);
    ::dup2(in, STDIN_FILENO);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
    for (const int fd : options.closed) ::close(fd);
    for (const auto& [resource, value] : options.limits) {
      const rlimit limit{value, value};
      if (::setrlimit(resource, &limit) != 0) ::_exit(126);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  if (options.stdout_reader_gone) {
    ::close(reader_gone[0]);
    ::close(reader_gone[1]);
  }
  if (options.while_running) options.while_running(pid);
  ProcessResult result;
  int status = 0;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(options.timeout_seconds);
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal_number = WTERMSIG(status);
  if (options.stdout_path.empty() && !options.stdout_reader_gone)
    result.out = take_file(captured_out);
  if (options.stderr_path.empty()) result.err = take_file(captured_err);
  return result;
}

size_t address_space_at_start(const std::vector<std::string>& args, const std::string& fifo,
                              const std::string& scratch) {
  if (::mkfifo(fifo.c_str(), 0600) != 0) return 0;
  size_t kib = 0;
  ProcessOptions options;
  options.while_running = [&](pid_t pid) {
    const std::string proc = "/proc/" + std::to_string(pid);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (kib == 0 && std::chrono::steady_clock::now() < deadline) {
      std::ifstream wchan(proc + "/wchan");
      std::string where;
      wchan >> where;
      if (where == "wait_for_partner") {  // blocked opening the FIFO
        std::ifstream status(proc + "/status");
        for (std::string line; std::getline(status, line);)
          if (line.rfind("VmSize:", 0) == 0) kib = std::stoul(line.substr(7));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(pid, SIGKILL);
  };
  run_mishbench(args, scratch, options);
  std::remove(fifo.c_str());
  return kib << 10;
}

}  // namespace mish
