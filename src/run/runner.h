// Runs a RunConfig over a table of backends: per problem, generate the inputs and the float64
// reference once, then take every backend through its steps (run/steps.h).
#pragma once
#include "backends/builtin/registry.h"
#include "core/outcome/outcome.h"
#include "settings/run_config.h"

namespace mish {

// `backends`: the selected rows, in the order they run (check their options against the whole
// table first: check_backend_options). Throws UsageError for a bad option, EnvironmentError when a GPU backend has no device or a problem does not fit in device
// memory; every backend's own failure is recorded in its result instead.
RunOutcome run_benchmark(const RunConfig& config, const BackendTable& backends);

}  // namespace mish
