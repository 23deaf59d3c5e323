// One problem as the run holds it on the host: its inputs and the float64 reference every backend
// is checked against, made once and shared by all backends.
#pragma once
#include <vector>

#include "core/problem/generator.h"
#include "core/problem/problem.h"

namespace mish {

struct ProblemData {
  Problem problem;
  HostInputs inputs;
  std::vector<double> reference;  // [m, n]
  double reference_ms = 0;        // what computing it took (sizes the checks of host backends)
};

}  // namespace mish
