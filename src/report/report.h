// The JSON report (schema in docs/report-schema.md) and the console table.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/run_config.h"
#include "run/runner.h"

namespace mish {

constexpr const char* kSchemaVersion = "1.1.0";

nlohmann::json build_report(const RunOutcome& outcome, const RunConfig& config,
                            const std::vector<std::string>& argv);

// Writes to a temporary file beside `path`, then renames: a reader never sees half a report.
void write_json_atomically(const std::string& path, const nlohmann::json& document);

// median_ms of `separate` on the same problem divided by this result's median; 0 if unknown.
double speedup_vs_separate(const ProblemRun& run, const BackendResult& result);

void print_table(std::FILE* out, const RunOutcome& outcome);

}  // namespace mish
