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
  all.push_back(make_wgmma_backend());
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

}  // namespace mish
