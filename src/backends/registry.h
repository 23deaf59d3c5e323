// The one list of backends, in a fixed order.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"

namespace mish {

std::vector<std::unique_ptr<Backend>> make_all_backends();
std::vector<std::string> backend_names();

// Resolves "all" or a comma list into backends in registry order; throws UsageError on an
// unknown or repeated name.
std::vector<std::unique_ptr<Backend>> select_backends(const std::vector<std::string>& requested);

// Applies {"name": {options}} to the matching backends; throws UsageError for an unknown backend
// name or an option the backend rejects, selected or not.
void configure_backends(std::vector<std::unique_ptr<Backend>>& backends,
                        const nlohmann::json& options);

}  // namespace mish
