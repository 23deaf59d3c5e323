#include "app/worker/table_backends.h"

#include <stdexcept>

#include "backends/plugins/plugin_backend.h"

namespace mish {

WorkerBackends table_backends(std::shared_ptr<const void> owner,
                              const std::vector<PluginBackendSpec>& specs,
                              const BackendOrigin& origin) {
  WorkerBackends backends;
  for (const PluginBackendSpec& spec : specs)
    backends.infos.push_back(make_table_backend(owner, spec, origin)->info());
  backends.create = [owner, &specs, origin](const std::string& name) {
    for (const PluginBackendSpec& spec : specs)
      if (spec.name == name) return make_table_backend(owner, spec, origin);
    throw std::runtime_error("this worker has no backend named '" + name + "'");
  };
  return backends;
}

}  // namespace mish
