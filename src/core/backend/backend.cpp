#include "core/backend/backend.h"

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"

namespace mish {

BackendInfo Backend::info() const {
  return {std::string(name()), std::string(summary()), std::string(math_mode()),
          expected_accuracy(), placement(), origin()};
}

void Backend::configure(const nlohmann::json& options) {
  if (!options.empty())
    throw UsageError(fmt::format("backend '{}' takes no options (got '{}')", name(),
                                 for_terminal(options.begin().key())));
}

}  // namespace mish
