// The C entry point of libmishbench_worker.so: a process that is not this tool (the Python
// solution worker, through ctypes) serves a backend table of the plugin ABI to the tool, with the
// same loop, checks, timing and protocol as a worker of the tool itself.
#include <cstdio>
#include <memory>

#include "app/worker/serve.h"
#include "app/worker/table_backends.h"
#include "backends/plugins/plugin_library.h"
#include "mishbench/plugin.h"

namespace {

// The caller's table, checked as a plugin library's would be; `origin_json` describes where it
// comes from ({"kind": "solution", "path": ..., "sha256": ...}).
mish::WorkerBackends table_backends(const mishbench_plugin* table, const char* origin_json) {
  const nlohmann::json origin_fields = nlohmann::json::parse(origin_json);
  mish::BackendOrigin origin;
  origin.kind = origin_fields.value("kind", std::string("solution"));
  origin.path = origin_fields.value("path", std::string());
  origin.sha256 = origin_fields.value("sha256", std::string());
  auto specs = std::make_shared<const std::vector<mish::PluginBackendSpec>>(
      mish::read_plugin_table(table, origin.kind + " '" + origin.path + "'"));
  return mish::table_backends(specs, *specs, origin);
}

}  // namespace

// Serves the tool on `socket_fd` until it asks to exit; returns the process's exit status.
extern "C" MISHBENCH_PLUGIN_EXPORT int mishbench_worker_serve(int socket_fd,
                                                             const mishbench_plugin* table,
                                                             const char* origin_json) {
  return mish::serve_worker(socket_fd, [&] { return table_backends(table, origin_json); });
}
