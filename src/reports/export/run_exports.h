// A run's results in the forms other benchmark tools offer besides JSON: CSV (one row per
// result, for spreadsheets and pandas) and a Markdown table (a CI job summary). Both are made
// from the report (reports/report/report.h), so they say what it says.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace mish {

// A header line and one line per result, RFC 4180 (fields with a comma, quote or line break are
// quoted, quotes doubled); a text cell that a spreadsheet would read as a formula (=, +, -, @)
// starts with an apostrophe.
std::string results_csv(const nlohmann::json& report);

// "### mishbench run" and a table of the results; names escaped for Markdown.
std::string results_markdown(const nlohmann::json& report);

}  // namespace mish
