// What a worker serves from a checked table of the plugin ABI: a plugin library's, or one handed
// to the worker library by a process that is not this tool (a Python solution).
#pragma once
#include <memory>
#include <vector>

#include "app/worker/serve.h"
#include "backends/plugins/plugin_library.h"

namespace mish {

// Each backend's info, and a backend by name. `owner` keeps `specs` and the functions they point
// to alive for as long as any backend made from them.
WorkerBackends table_backends(std::shared_ptr<const void> owner,
                              const std::vector<PluginBackendSpec>& specs,
                              const BackendOrigin& origin);

}  // namespace mish
