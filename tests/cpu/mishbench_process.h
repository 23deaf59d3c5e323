// Runs the built mishbench binary as a user would, without a shell in between (so arguments
// reach it byte for byte: quotes, newlines, empty strings), with stdin from /dev/null and a time
// limit, and captures what it printed.
#pragma once
#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace mish {

struct ProcessResult {
  int exit_code = -1;     // -1 when it did not exit normally
  int signal_number = 0;  // the signal that ended it, or 0
  bool timed_out = false;
  std::string out, err;
};

struct ProcessOptions {
  int timeout_seconds = 60;
  std::string stdout_path;  // a file stdout goes to; empty: captured into ProcessResult::out
  std::string stderr_path;  // a file stderr goes to; empty: captured into ProcessResult::err
  std::vector<int> closed;  // standard descriptors (0, 1, 2) closed, as `2>&-` does: not captured
  bool stdout_reader_gone = false;  // stdout a pipe whose reader has gone, as in `| true`
  std::vector<std::pair<int, rlim_t>> limits;  // setrlimit(resource, value) before it starts
  std::string working_folder;  // where it runs; empty: the source tree
  // Called once the process runs (to watch it, signal it); the time limit applies after it.
  std::function<void(pid_t pid)> while_running;
};

// `args` follow the program name; `scratch` is a folder for the captured output.
ProcessResult run_mishbench(const std::vector<std::string>& args, const std::string& scratch,
                            const ProcessOptions& options = {});

// The address space (bytes) mishbench maps before it does any work, its libraries loaded: that of
// `args` run until it waits to open `fifo` (made here, removed after), which `args` name as an
// input. 0 when it could not be measured.
size_t address_space_at_start(const std::vector<std::string>& args, const std::string& fifo,
                              const std::string& scratch);

}  // namespace mish
