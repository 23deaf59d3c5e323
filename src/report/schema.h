// Checks that a document is a mishbench report this build can read (docs/report-schema.md).
// Readers refuse a newer major schema version and warn on a newer minor one.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mish {

constexpr const char* kSchemaVersion = "1.4.0";

struct SchemaCheck {
  std::vector<std::string> errors;    // the document cannot be used
  std::vector<std::string> warnings;  // usable, but something is off (newer minor version)
  bool ok() const { return errors.empty(); }
};

SchemaCheck check_report(const nlohmann::json& report);

}  // namespace mish
