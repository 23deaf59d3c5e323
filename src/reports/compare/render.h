// A comparison as a Markdown table (stdout, CI job summaries) and as JSON (--json). Everything
// that came from a report is escaped for Markdown and for the terminal and shortened
// (untrusted_text.h); the JSON keeps it as stored.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "reports/compare/compare.h"

namespace mish {

// The version of the --json output, MAJOR.MINOR.PATCH as the run report's schema_version: a major
// bump removes or changes a field, a minor one adds fields (docs/compare.md#json-output).
constexpr const char* kCompareSchemaVersion = "1.0.0";

std::string to_markdown(const CompareOutcome& outcome, const CompareSettings& settings);
nlohmann::json to_json(const CompareOutcome& outcome, const CompareSettings& settings);

}  // namespace mish
