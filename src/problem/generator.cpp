#include "problem/generator.h"

namespace mish {

void generate_tensor(const Problem& problem, Tensor tensor, float* out, uint64_t count) {
  const float bound = problem.init_bound();
  const uint64_t row_length = tensor == Tensor::b ? uint64_t(problem.n) : uint64_t(problem.k);
  const int64_t n = static_cast<int64_t>(count);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i)
    out[i] = input_value(problem.distribution, problem.seed, tensor, uint64_t(i), row_length, bound);
}

HostInputs generate_inputs(const Problem& problem) {
  HostInputs inputs;
  inputs.x.resize(problem.x_count());
  inputs.w.resize(problem.w_count());
  inputs.b.resize(problem.n);
  generate_tensor(problem, Tensor::x, inputs.x.data(), inputs.x.size());
  generate_tensor(problem, Tensor::w, inputs.w.data(), inputs.w.size());
  generate_tensor(problem, Tensor::b, inputs.b.data(), inputs.b.size());
  return inputs;
}

}  // namespace mish
