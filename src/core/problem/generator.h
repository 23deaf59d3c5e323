// Host-side input generation (OpenMP), bit-identical to the device generator.
#pragma once
#include <functional>
#include <vector>

#include "core/problem/input_rng.cuh"
#include "core/problem/problem.h"

namespace mish {

struct HostInputs {
  std::vector<float> x;  // [m, k]
  std::vector<float> w;  // [n, k]
  std::vector<float> b;  // [n]
};

// `on_progress` (optional) is called with the fraction done, in chunks of a few million elements.
HostInputs generate_inputs(const Problem& problem,
                           const std::function<void(double)>& on_progress = {});

// Fills `out` (count elements of one tensor) on the host.
void generate_tensor(const Problem& problem, Tensor tensor, float* out, uint64_t count);

}  // namespace mish
