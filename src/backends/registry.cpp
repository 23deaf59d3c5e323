#include "backends/registry.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/errors.h"
#include "common/untrusted_text.h"

// The one list of built-in backends, in their fixed order. Each name `id` is a backend adapter
// in src/backends/ that defines `make_<id>_backend()`; a new built-in is one row here.
#define MISH_BUILTIN_BACKENDS(ROW) \
  ROW(naive)                       \
  ROW(separate)                    \
  ROW(fused)                       \
  ROW(cublaslt)                    \
  ROW(tf32)                        \
  ROW(bf16)                        \
  ROW(3xtf32)                      \
  ROW(fp16x3)                      \
  ROW(wgmma)                       \
  ROW(splitk)                      \
  ROW(cpu)

namespace mish {

#define MISH_DECLARE_FACTORY(id) std::unique_ptr<Backend> make_##id##_backend();
MISH_BUILTIN_BACKENDS(MISH_DECLARE_FACTORY)
#undef MISH_DECLARE_FACTORY

BackendTable builtin_backends() {
  using Factory = std::unique_ptr<Backend> (*)();
#define MISH_FACTORY(id) &make_##id##_backend,
  static constexpr Factory kFactories[] = {MISH_BUILTIN_BACKENDS(MISH_FACTORY)};
#undef MISH_FACTORY
  BackendTable table;
  for (const Factory factory : kFactories) {
    BackendEntry entry;
    entry.info = factory()->info();
    entry.create = factory;
    table.push_back(std::move(entry));
  }
  return table;
}

std::unique_ptr<Backend> make_builtin_backend(std::string_view name) {
  const BackendTable table = builtin_backends();
  for (const BackendEntry& entry : table)
    if (entry.info.name == name) return entry.create();
  throw UsageError(fmt::format("unknown backend '{}'; known backends: {}", for_terminal(name),
                               fmt::join(backend_names(table), ", ")));
}

std::vector<std::string> backend_names(const BackendTable& table) {
  std::vector<std::string> names;
  for (const BackendEntry& entry : table) names.push_back(entry.info.name);
  return names;
}

BackendTable select_backends(const BackendTable& table, const std::vector<std::string>& requested) {
  if (requested.empty() || (requested.size() == 1 && requested[0] == "all")) return table;
  const std::vector<std::string> known = backend_names(table);
  for (size_t i = 0; i < requested.size(); ++i) {
    const std::string& name = requested[i];
    if (name == "all") throw UsageError("--backend=all cannot be combined with other names");
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw UsageError(fmt::format("unknown backend '{}'; known backends: {} (see --list-backends)",
                                   for_terminal(name), fmt::join(known, ", ")));
    if (std::find(requested.begin(), requested.begin() + i, name) != requested.begin() + i)
      throw UsageError(fmt::format("backend '{}' is listed twice", for_terminal(name)));
  }
  BackendTable chosen;
  for (const std::string& name : requested)
    chosen.push_back(*std::find_if(table.begin(), table.end(),
                                   [&](const BackendEntry& entry) { return entry.info.name == name; }));
  return chosen;
}

void check_backend_options(const BackendTable& table, const nlohmann::json& options) {
  for (const auto& item : options.items()) {
    const auto known = std::find_if(table.begin(), table.end(), [&](const BackendEntry& entry) {
      return entry.info.name == item.key();
    });
    if (known == table.end())
      throw UsageError(fmt::format("backend option for unknown backend '{}'; known backends: {}",
                                   for_terminal(item.key()),
                                   fmt::join(backend_names(table), ", ")));
    // A backend made only in its worker checks its options there, at setup.
    if (known->create) known->create()->configure(item.value());
  }
}

std::unique_ptr<Backend> make_configured(const BackendEntry& entry, const nlohmann::json& options) {
  std::unique_ptr<Backend> backend = entry.create();
  if (options.contains(entry.info.name)) backend->configure(options.at(entry.info.name));
  return backend;
}

}  // namespace mish
