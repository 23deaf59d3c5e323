// Load failure: a plugin written without mishbench/plugin.h, whose entry point therefore has C++
// linkage (a mangled name).
#include <cstdint>

struct Table {
  uint32_t abi_version, backend_count;
  const void* backends;
};
static const Table kTable = {1, 0, nullptr};

__attribute__((visibility("default"))) const Table* mishbench_plugin_entry() { return &kTable; }
