// The float64 reference every backend is checked against: GEMM in double through CBLAS
// (OpenBLAS), then bias and both Mish in double. Computed once per problem.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/problem/generator.h"
#include "core/problem/problem.h"

namespace mish {

// PyTorch's definition evaluated in double: x * tanh(log1p(exp(x))).
double mish_double(double x);

// y_ref [m, n] row-major. `on_progress` (optional) gets the fraction done: the product runs in
// column blocks of y (each block a separate dgemm over its rows of W, which costs nothing extra).
std::vector<double> compute_reference(const Problem& problem, const HostInputs& inputs,
                                      const std::function<void(double)>& on_progress = {});

// The host memory compute_reference takes beyond its result: the float64 copies of x and W.
uint64_t reference_copies_bytes(const Problem& problem);

// The address space OpenBLAS maps for compute_reference's dgemm calls: a buffer of 128 MiB
// (OpenBLAS's BUFFER_SIZE on x86-64) for each thread it runs them on, one for a product too
// small to be split. Mostly untouched, but counted by ulimit -v; when it cannot be had,
// OpenBLAS retries the allocation forever, so this must be checked before the reference starts.
uint64_t blas_workspace_bytes(const Problem& problem);

}  // namespace mish
