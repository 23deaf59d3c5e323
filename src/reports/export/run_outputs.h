// Where a run's results go besides the table: the JSON report (--json), CSV (--csv) and a
// Markdown table (--markdown), each a file written safely (base/io/output_file.h) or, as "-",
// standard output, which then carries that output alone: the table goes to stderr.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "settings/run_config.h"

namespace mish {

// Before any work: refuses (UsageError) an output that cannot be written or is one of `inputs`,
// two outputs that are one file, and more than one output on standard output.
void check_run_outputs(const RunConfig& config, const std::vector<std::string>& inputs);

// Whether an output takes standard output, so that the table must not.
bool standard_output_taken(const RunConfig& config);

// Whether the run writes anything built from the report.
bool any_run_output(const RunConfig& config);

// Writes every output given from `report`; "report written to FILE" on stderr unless quiet.
void write_run_outputs(const RunConfig& config, const nlohmann::json& report);

}  // namespace mish
