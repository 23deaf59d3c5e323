// The console table: one line per backend and problem, then the timing details, reasons and
// prepack times below it.
#pragma once
#include <cstdio>

#include "outcome/outcome.h"

namespace mish {

void print_table(std::FILE* out, const RunOutcome& outcome);

}  // namespace mish
