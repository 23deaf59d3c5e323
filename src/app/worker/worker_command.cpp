#include "app/worker/worker_command.h"

#include "app/worker/serve.h"
#include "app/worker/table_backends.h"
#include "backends/builtin/registry.h"
#include "backends/plugins/plugin_library.h"

namespace mish {

CLI::App* add_worker_command(CLI::App& app, WorkerFlags& flags) {
  CLI::App* worker = app.add_subcommand("worker", "Serve a backend to the tool (internal)");
  worker->group("");  // hidden: the tool starts it, users never do
  worker->add_option("--socket-fd", flags.socket_fd)->required();
  auto* builtin = worker->add_option("--builtin", flags.builtin);
  auto* plugin = worker->add_option("--plugin", flags.plugin);
  builtin->excludes(plugin);
  return worker;
}

int run_worker(const WorkerFlags& flags) {
  return serve_worker(flags.socket_fd, [&]() -> WorkerBackends {
    if (!flags.plugin.empty()) {
      const std::shared_ptr<const PluginLibrary> library = load_plugin(flags.plugin);
      return table_backends(library, library->backends(), library->origin());
    }
    WorkerBackends backends;
    for (const BackendEntry& entry : builtin_backends())
      if (flags.builtin.empty() || entry.info.name == flags.builtin)
        backends.infos.push_back(entry.info);
    backends.create = [](const std::string& name) { return make_builtin_backend(name); };
    return backends;
  });
}

}  // namespace mish
