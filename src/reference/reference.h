// The float64 reference every backend is checked against: GEMM in double through CBLAS
// (OpenBLAS), then bias and both Mish in double. Computed once per problem.
#pragma once
#include <vector>

#include "problem/generator.h"
#include "problem/problem.h"

namespace mish {

// PyTorch's definition evaluated in double: x * tanh(log1p(exp(x))).
double mish_double(double x);

// y_ref [m, n] row-major.
std::vector<double> compute_reference(const Problem& problem, const HostInputs& inputs);

}  // namespace mish
