#include "core/problem/problem.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/common/errors.h"

namespace mish {

float Problem::init_bound() const { return static_cast<float>(1.0 / std::sqrt(double(k))); }

std::string Problem::shape() const { return fmt::format("{}x{}x{}", m, n, k); }

void validate(const Problem& problem) {
  constexpr int64_t kMaxDim = std::numeric_limits<int32_t>::max();  // BLAS dimensions are int
  const std::pair<const char*, int64_t> dims[] = {
      {"m", problem.m}, {"n", problem.n}, {"k", problem.k}};
  for (const auto& [name, value] : dims) {
    if (value <= 0)
      throw UsageError(fmt::format("--{} must be positive, got {}", name, value));
    if (value > kMaxDim)
      throw UsageError(fmt::format("--{}={} is larger than {}, the largest BLAS dimension", name,
                                   value, kMaxDim));
  }
  // Element counts must fit comfortably in 64-bit byte arithmetic (and in memory, checked later).
  constexpr double kMaxElements = double(int64_t(1) << 56);
  const double largest = std::max({double(problem.m) * double(problem.k),
                                    double(problem.n) * double(problem.k),
                                    double(problem.m) * double(problem.n)});
  if (largest > kMaxElements)
    throw UsageError(fmt::format("problem {} has {:.3g} elements in one matrix; the limit is 2^56",
                                 problem.shape(), largest));
}

const std::vector<std::string>& distribution_names() {
  static const std::vector<std::string> names = {"kernelbench", "normal", "normal-unit", "wide"};
  return names;
}

std::string to_string(Distribution dist) { return distribution_names().at(static_cast<int>(dist)); }

Distribution parse_distribution(const std::string& name) {
  const auto& names = distribution_names();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<Distribution>(i);
  throw UsageError(fmt::format("unknown distribution '{}'; choose one of: {}", name,
                               fmt::join(names, ", ")));
}

}  // namespace mish
