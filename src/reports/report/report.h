// The JSON report (schema in docs/report-schema.md).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/outcome/outcome.h"
#include "reports/report/schema.h"
#include "settings/run_config.h"

namespace mish {

nlohmann::json build_report(const RunOutcome& outcome, const RunConfig& config,
                            const std::vector<std::string>& argv);

// Writes to a temporary file beside `path`, then renames: a reader never sees half a report.
void write_json_atomically(const std::string& path, const nlohmann::json& document);

}  // namespace mish
