#include "backends/builtin/registry.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/common/errors.h"
#include "base/common/nearest_name.h"
#include "base/common/untrusted_text.h"

// The one list of built-in backends, in their fixed order. Each name `id` is a backend adapter
// in src/backends/builtin/ that defines `make_<id>_backend()`; a new built-in is one row here.
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

namespace {

// "<what> 'fusd' (did you mean 'fused'?); known backends: ... (see --list-backends)"; for a name
// like none of them, how a backend from outside the tool joins the run.
UsageError unknown_backend(const char* what, std::string_view name, const BackendTable& table,
                           const std::vector<std::string>& also_known) {
  std::vector<std::string> known = backend_names(table);
  for (const std::string& more : also_known)
    if (std::find(known.begin(), known.end(), more) == known.end()) known.push_back(more);
  const std::optional<std::string> nearest = nearest_name(name, known);
  return UsageError(fmt::format(
      "{} '{}'{}; known backends: {} (see --list-backends){}", what, for_terminal(name),
      nearest ? fmt::format(" (did you mean '{}'?)", *nearest) : "", fmt::join(known, ", "),
      nearest ? "" : "; a plugin's or a solution's backend joins the run with --plugin LIBRARY "
                     "or --solution FILE"));
}

}  // namespace

std::unique_ptr<Backend> make_builtin_backend(std::string_view name) {
  const BackendTable table = builtin_backends();
  for (const BackendEntry& entry : table)
    if (entry.info.name == name) return entry.create();
  throw unknown_backend("unknown backend", name, table, {});
}

std::vector<std::string> backend_names(const BackendTable& table) {
  std::vector<std::string> names;
  for (const BackendEntry& entry : table) names.push_back(entry.info.name);
  return names;
}

BackendTable select_backends(const BackendTable& table, const std::vector<std::string>& requested,
                             const std::vector<std::string>& also_known) {
  if (requested.empty() || (requested.size() == 1 && requested[0] == "all")) return table;
  const std::vector<std::string> known = backend_names(table);
  for (size_t i = 0; i < requested.size(); ++i) {
    const std::string& name = requested[i];
    if (name == "all") throw UsageError("--backend=all cannot be combined with other names");
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw unknown_backend("unknown backend", name, table, also_known);
    if (std::find(requested.begin(), requested.begin() + i, name) != requested.begin() + i)
      throw UsageError(fmt::format("backend '{}' is listed twice", for_terminal(name)));
  }
  BackendTable chosen;
  for (const std::string& name : requested)
    chosen.push_back(*std::find_if(table.begin(), table.end(),
                                   [&](const BackendEntry& entry) { return entry.info.name == name; }));
  return chosen;
}

void check_backend_options(const BackendTable& table, const nlohmann::json& options,
                           const std::vector<std::string>& also_known) {
  for (const auto& item : options.items()) {
    const auto known = std::find_if(table.begin(), table.end(), [&](const BackendEntry& entry) {
      return entry.info.name == item.key();
    });
    if (known == table.end())
      throw unknown_backend("backend option for unknown backend", item.key(), table, also_known);
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
