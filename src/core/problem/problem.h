// The problem: y = mish(mish(x * W^T + b)), x [m,k], W [n,k], b [n], fp32.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/problem/distribution.h"

namespace mish {

struct Problem {
  int64_t m = 1024;
  int64_t n = 8192;
  int64_t k = 8192;
  uint64_t seed = 42;
  Distribution distribution = Distribution::kernelbench;

  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
  uint64_t x_count() const { return uint64_t(m) * uint64_t(k); }
  uint64_t w_count() const { return uint64_t(n) * uint64_t(k); }
  uint64_t y_count() const { return uint64_t(m) * uint64_t(n); }
  // Bytes of x, W, b and y in fp32.
  uint64_t io_bytes() const { return 4 * (x_count() + w_count() + uint64_t(n) + y_count()); }
  // float(1/sqrt(k)): nn.Linear's init bound, computed once so host and device share it.
  float init_bound() const;
  std::string shape() const;  // "1024x8192x8192" (m x n x k)
};

// Throws UsageError for non-positive sizes or sizes that overflow 32-bit BLAS dimensions
// or 64-bit byte counts.
void validate(const Problem& problem);

std::string to_string(Distribution dist);
Distribution parse_distribution(const std::string& name);  // throws UsageError
const std::vector<std::string>& distribution_names();

}  // namespace mish
