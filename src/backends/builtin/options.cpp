#include "backends/builtin/options.h"

#include <fmt/format.h>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"

namespace mish {

int integer_option(std::string_view backend, const std::string& key, const nlohmann::json& value,
                   int low, int high) {
  if (!value.is_number_integer() || value.get<int64_t>() < low || value.get<int64_t>() > high)
    throw UsageError(fmt::format("{}.{} must be an integer from {} to {}, got {}", backend, key,
                                 low, high, json_for_terminal(value)));
  return value.get<int>();
}

void unknown_option(std::string_view backend, const std::string& key, std::string_view known) {
  throw UsageError(fmt::format("backend '{}' has no option '{}'; {}", backend, for_terminal(key),
                               known));
}

}  // namespace mish
