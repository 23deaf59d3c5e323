// The report's view of an epilogue launch (kernels/epilogue.cuh) over a backend's y.
#pragma once
#include <nlohmann/json.hpp>

#include "core/problem/problem.h"
#include "epilogue.cuh"

namespace mish {

// `bias`: the pointer the epilogue reads (nullptr when the bias is applied elsewhere).
inline nlohmann::json describe_epilogue_launch(const float* y, const float* bias,
                                               const Problem& problem) {
  const EpilogueLaunch launch = epilogue_launch(y, EpilogueSource{}, bias, problem.m, problem.n);
  return {{"grid", launch.grid}, {"block", launch.block}, {"vector_width", launch.vector_width}};
}

}  // namespace mish
