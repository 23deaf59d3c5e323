#include "backends/registry.h"

#include <fmt/format.h>

#include <algorithm>

#include "backends/factories.h"
#include "common/errors.h"

namespace mish {

std::vector<std::unique_ptr<Backend>> make_all_backends() {
  std::vector<std::unique_ptr<Backend>> all;
  all.push_back(make_naive_backend());
  all.push_back(make_separate_backend());
  all.push_back(make_fused_backend());
  all.push_back(make_cublaslt_backend());
  all.push_back(make_tf32_backend());
  all.push_back(make_bf16_backend());
  all.push_back(make_3xtf32_backend());
  all.push_back(make_fp16x3_backend());
  all.push_back(make_wgmma_backend());
  all.push_back(make_splitk_backend());
  all.push_back(make_cpu_backend());
  return all;
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const auto& backend : make_all_backends()) names.emplace_back(backend->name());
  return names;
}

std::vector<std::unique_ptr<Backend>> select_backends(const std::vector<std::string>& requested) {
  std::vector<std::unique_ptr<Backend>> all = make_all_backends();
  if (requested.empty() || (requested.size() == 1 && requested[0] == "all")) return all;
  const std::vector<std::string> known = backend_names();
  for (size_t i = 0; i < requested.size(); ++i) {
    const std::string& name = requested[i];
    if (name == "all")
      throw UsageError("--backend=all cannot be combined with other names");
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw UsageError(fmt::format("unknown backend '{}'; known backends: {} (see --list-backends)",
                                   name, fmt::join(known, ", ")));
    if (std::find(requested.begin(), requested.begin() + i, name) != requested.begin() + i)
      throw UsageError(fmt::format("backend '{}' is listed twice", name));
  }
  std::vector<std::unique_ptr<Backend>> chosen;
  for (auto& backend : all)
    if (std::find(requested.begin(), requested.end(), backend->name()) != requested.end())
      chosen.push_back(std::move(backend));
  return chosen;
}

void configure_backends(std::vector<std::unique_ptr<Backend>>& backends,
                        const nlohmann::json& options) {
  // Every option is checked, also those of backends not selected in this run.
  std::vector<std::unique_ptr<Backend>> all = make_all_backends();
  for (const auto& item : options.items()) {
    const auto known = std::find_if(all.begin(), all.end(),
                                    [&](const auto& backend) { return backend->name() == item.key(); });
    if (known == all.end())
      throw UsageError(fmt::format("backend option for unknown backend '{}'; known backends: {}",
                                   item.key(), fmt::join(backend_names(), ", ")));
    (*known)->configure(item.value());
    for (auto& backend : backends)
      if (backend->name() == item.key()) backend->configure(item.value());
  }
}

}  // namespace mish
