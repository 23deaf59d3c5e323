// A worker process as the tool sees it: started with one end of a socket pair as descriptor 3,
// its stdout and stderr captured (a backend's prints never reach the tool's output), asked one
// request at a time under a watchdog, and killed, with its whole process group, when it stops
// answering. Its death and its last output become the failing backend's reason. Its whole
// descendant tree ends with it, even a process that left its session (setsid): the tool is a
// subreaper, and when a worker ends, every child of the tool that is not a live worker is ended
// and reaped (so is, with --isolate none, a child an in-process plugin left running). Its death
// is seen as it happens, not when its socket and output pipe close, which a descendant holding
// them could delay forever.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend/backend.h"
#include "exec/worker/channel.h"

namespace mish {

// A step of a worker, as messages name it ("setup()", "the timed series").
struct WorkerStep {
  WorkerStep(std::string name) : name(std::move(name)) {}  // NOLINT: a step of its own
  WorkerStep(const char* name) : name(name) {}             // NOLINT
  // One call of the backend, whose own messages name the call ("setup(): ..."): a failure the
  // worker reports reads as it does in the tool's own process, not as "in setup(): setup(): ...".
  static WorkerStep backend_call(std::string name) {
    WorkerStep step(std::move(name));
    step.is_backend_call = true;
    return step;
  }

  std::string name;
  bool is_backend_call = false;
};

// The worker's program ended before it sent its first line, {"started": true}: it never became
// a worker (a --python that is no Python 3, a program that is not one). `program` is its path,
// `end` how it ended ("exit status 1"), `last_output` its last line of output, if any.
class WorkerNeverStarted : public BackendError {
 public:
  WorkerNeverStarted(std::string program, std::string end, std::string last_output);
  std::string program, end, last_output;
};

class WorkerProcess {
 public:
  // Starts argv[0] with argv[1..] and "--socket-fd 3". Throws EnvironmentError when it cannot.
  WorkerProcess(const std::vector<std::string>& argv, std::string label);
  ~WorkerProcess();  // asks the worker to exit; kills it if it does not within a second
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool alive() const { return !dead_; }

  // Sends `request` ({"op": ...}) and returns the reply's fields. Throws WorkerNeverStarted when
  // the worker ended before its first line. `during` names the step in
  // messages; a failure the worker reports is put in it ("in the timed series: run(): ..."),
  // unless the step is a backend call. Progress lines ({"progress": f}) go to `on_progress`
  // and count as answers. Throws GraphCaptureError or BackendError when the worker reports a
  // failure, and BackendError when it dies, closes its socket, sends garbage or stays silent for
  // longer than `silence_limit` (it is then killed); a worker whose failure left its GPU context
  // unusable is killed too.
  nlohmann::json request(const nlohmann::json& request, const WorkerStep& during,
                         std::chrono::seconds silence_limit,
                         const std::function<void(double)>& on_progress = {},
                         const std::vector<int>& fds = {});

  void kill();
  // The last lines the worker printed (stdout and stderr), at most a few KiB.
  std::string output_tail() const;

 private:
  [[noreturn]] void fail(const std::string& what);
  // That the worker ended: fail(what), or WorkerNeverStarted when it never sent a line (those it
  // sent before its end are read first).
  [[noreturn]] void ended(const std::string& what);
  std::string last_output_line() const;
  std::string describe_exit();
  void reaped(int status);  // records how it ended, then ends what it left behind
  void capture_output(int fd);

  std::string label_;
  std::string program_;  // argv[0]
  bool started_ = false;  // it sent a line
  pid_t pid_ = -1;
  bool dead_ = false;
  int exit_status_ = 0;
  std::unique_ptr<Channel> channel_;
  int stop_reading_[2] = {-1, -1};  // a pipe: a byte written asks the output reader to stop
  std::thread output_reader_;
  mutable std::mutex output_mutex_;
  std::string output_;
};

}  // namespace mish
