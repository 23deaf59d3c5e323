// A comparison as a Markdown table (stdout, CI job summaries) and as JSON (--json). Everything
// that came from a report is escaped for Markdown and for the terminal and shortened
// (untrusted_text.h); the JSON keeps it as stored.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "compare/compare.h"

namespace mish {

std::string to_markdown(const CompareOutcome& outcome, const CompareSettings& settings);
nlohmann::json to_json(const CompareOutcome& outcome, const CompareSettings& settings);

}  // namespace mish
