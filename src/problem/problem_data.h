// One problem as the run holds it on the host: its inputs and the float64 reference every backend
// is checked against, made once and shared by all backends.
#pragma once
#include <vector>

#include "problem/generator.h"
#include "problem/problem.h"

namespace mish {

// The stale-output check draws its fresh x with the problem's seed plus this (2^64 / golden ratio).
constexpr uint64_t kFreshInputSeedOffset = 0x9e3779b97f4a7c15ULL;

struct ProblemData {
  Problem problem;
  HostInputs inputs;
  std::vector<double> reference;  // [m, n]
};

}  // namespace mish
