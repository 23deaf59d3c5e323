// The console table: one line per backend and problem, then the timing details, reasons and
// prepack times below it; and the node summary of a run on several devices.
#pragma once
#include <cstdio>

#include "core/outcome/outcome.h"
#include "core/verify/verify.h"

namespace mish {

// With several devices the results are grouped by device, each under a heading that names it.
// A legend under the tables says what the figures are, and the tolerance the outputs were
// checked against.
void print_table(std::FILE* out, const RunOutcome& outcome, const Tolerance& tolerance);

// The node summary (reports/report/node_summary.h) of a run on two or more devices; nothing otherwise.
void print_node_summary(std::FILE* out, const RunOutcome& outcome);

}  // namespace mish
