#include "backends/backend.h"

#include <fmt/format.h>

#include "common/errors.h"

namespace mish {

std::string to_string(Accuracy accuracy) {
  return accuracy == Accuracy::fp32 ? "fp32" : "reduced";
}

void Backend::configure(const nlohmann::json& options) {
  if (!options.empty())
    throw UsageError(fmt::format("backend '{}' takes no options (got '{}')", name(),
                                 options.begin().key()));
}

}  // namespace mish
