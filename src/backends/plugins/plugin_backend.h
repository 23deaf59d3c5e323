// A plugin's backend seen through the ordinary mish::Backend interface: each call maps onto the
// C ABI of include/mishbench/plugin.h, and a failing call becomes a BackendError
// "<call>(): <the plugin's message>".
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "backends/plugins/plugin_library.h"
#include "core/backend/backend.h"

namespace mish {

// The backend at `index` of the library's table; it keeps the library loaded.
std::unique_ptr<Backend> make_plugin_backend(std::shared_ptr<const PluginLibrary> library,
                                             size_t index);

// A backend of a checked table that did not come from a library (a Python solution serves one
// through the worker's C entry point); `owner` keeps `spec` and its functions alive.
std::unique_ptr<Backend> make_table_backend(std::shared_ptr<const void> owner,
                                            const PluginBackendSpec& spec, BackendOrigin origin);

// Every backend of the library at `path`, in table order; throws UsageError (load_plugin).
std::vector<std::unique_ptr<Backend>> load_plugin_backends(const std::string& path);

}  // namespace mish
