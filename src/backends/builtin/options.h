// Checks of a built-in backend's options (--backend-option NAME.KEY=VALUE, config key
// backend_options): each failure is a UsageError that names the option and quotes the value,
// escaped for the terminal.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mish {

// `value` as an integer in [low, high].
int integer_option(std::string_view backend, const std::string& key, const nlohmann::json& value,
                   int low, int high);

// The error for an option the backend does not have; `known` lists the ones it has.
[[noreturn]] void unknown_option(std::string_view backend, const std::string& key,
                                 std::string_view known);

}  // namespace mish
