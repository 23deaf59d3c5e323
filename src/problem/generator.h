// Host-side input generation (OpenMP), bit-identical to the device generator.
#pragma once
#include <vector>

#include "problem/problem.h"

namespace mish {

struct HostInputs {
  std::vector<float> x;  // [m, k]
  std::vector<float> w;  // [n, k]
  std::vector<float> b;  // [n]
};

HostInputs generate_inputs(const Problem& problem);

// Fills `out` (count elements of one tensor) on the host.
void generate_tensor(const Problem& problem, Tensor tensor, float* out, uint64_t count);

}  // namespace mish
