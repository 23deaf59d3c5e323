// `mishbench worker`: the tool started as a worker process of itself (not for users; hidden from
// --help). It serves one built-in backend or the backends of one plugin library on the socket it
// was given (app/worker/serve.h).
#pragma once
#include <CLI/CLI.hpp>

#include <string>

namespace mish {

struct WorkerFlags {
  int socket_fd = -1;
  std::string builtin;  // a built-in backend's name
  std::string plugin;   // a plugin library's path
};

CLI::App* add_worker_command(CLI::App& app, WorkerFlags& flags);
int run_worker(const WorkerFlags& flags);

}  // namespace mish
