// The float64 reference every backend is checked against: GEMM in double through CBLAS
// (OpenBLAS), then bias and both Mish in double. Computed once per problem.
#pragma once
#include <functional>
#include <vector>

#include "problem/generator.h"
#include "problem/problem.h"

namespace mish {

// PyTorch's definition evaluated in double: x * tanh(log1p(exp(x))).
double mish_double(double x);

// y_ref [m, n] row-major. `on_progress` (optional) gets the fraction done: the product runs in
// column blocks of y (each block a separate dgemm over its rows of W, which costs nothing extra).
std::vector<double> compute_reference(const Problem& problem, const HostInputs& inputs,
                                      const std::function<void(double)>& on_progress = {});

}  // namespace mish
