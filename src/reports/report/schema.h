// Checks that a document is a mishbench report this build can read (docs/report-schema.md).
// Readers refuse a newer major schema version and warn on a newer minor one.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace mish {

constexpr const char* kSchemaVersion = "1.5.0";

struct SchemaCheck {
  std::vector<std::string> errors;    // the document cannot be used
  std::vector<std::string> warnings;  // usable, but something is off (newer minor version)
  bool ok() const { return errors.empty(); }
};

SchemaCheck check_report(const nlohmann::json& report);

struct SchemaVersion {
  int major = 0, minor = 0, patch = 0;
};

// "1.3.0": three decimal numbers of at most 9 digits, without sign, space or leading zero;
// nullopt for anything else ("1.3", "1.3.0-rc", " 1.3.0", "1.99999999999.0").
std::optional<SchemaVersion> parse_schema_version(std::string_view text);

}  // namespace mish
