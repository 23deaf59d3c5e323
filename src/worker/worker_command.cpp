#include "worker/worker_command.h"

#include "backends/registry.h"
#include "plugins/plugin_backend.h"
#include "plugins/plugin_library.h"
#include "worker/serve.h"

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
    WorkerBackends backends;
    if (!flags.plugin.empty()) {
      const std::shared_ptr<const PluginLibrary> library = load_plugin(flags.plugin);
      for (size_t i = 0; i < library->backends().size(); ++i)
        backends.infos.push_back(make_plugin_backend(library, i)->info());
      backends.create = [library](const std::string& name) {
        const std::vector<std::string> names = library->backend_names();
        for (size_t i = 0; i < names.size(); ++i)
          if (names[i] == name) return make_plugin_backend(library, i);
        throw std::runtime_error("the plugin has no backend named '" + name + "'");
      };
      return backends;
    }
    for (const BackendEntry& entry : builtin_backends())
      if (flags.builtin.empty() || entry.info.name == flags.builtin)
        backends.infos.push_back(entry.info);
    backends.create = [](const std::string& name) { return make_builtin_backend(name); };
    return backends;
  });
}

}  // namespace mish
