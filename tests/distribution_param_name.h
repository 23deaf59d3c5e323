// Test names for suites parametrized over the input distributions ("normal-unit" -> "normal_unit":
// gtest names allow no '-').
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/problem/problem.h"

namespace mish {

inline const auto kAllDistributions =
    ::testing::Values(Distribution::kernelbench, Distribution::normal, Distribution::normal_unit,
                      Distribution::wide);

inline std::string distribution_param_name(const ::testing::TestParamInfo<Distribution>& info) {
  std::string name = to_string(info.param);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace mish
