#include "core/problem/generator.h"

#include <algorithm>

namespace mish {

namespace {

constexpr uint64_t kProgressChunk = uint64_t(1) << 22;

// Elements [first, last) of one tensor.
void generate_range(const Problem& problem, Tensor tensor, float* out, uint64_t first,
                    uint64_t last) {
  const float bound = problem.init_bound();
  const uint64_t row_length = tensor == Tensor::b ? uint64_t(problem.n) : uint64_t(problem.k);
#pragma omp parallel for schedule(static)
  for (int64_t i = int64_t(first); i < int64_t(last); ++i)
    out[i] = input_value(problem.distribution, problem.seed, tensor, uint64_t(i), row_length, bound);
}

}  // namespace

void generate_tensor(const Problem& problem, Tensor tensor, float* out, uint64_t count) {
  generate_range(problem, tensor, out, 0, count);
}

HostInputs generate_inputs(const Problem& problem, const std::function<void(double)>& on_progress) {
  HostInputs inputs;
  inputs.x.resize(problem.x_count());
  inputs.w.resize(problem.w_count());
  inputs.b.resize(problem.n);
  const struct {
    Tensor tensor;
    std::vector<float>& values;
  } tensors[] = {{Tensor::x, inputs.x}, {Tensor::w, inputs.w}, {Tensor::b, inputs.b}};
  const double total = double(inputs.x.size() + inputs.w.size() + inputs.b.size());
  uint64_t done = 0;
  for (const auto& t : tensors) {
    for (uint64_t first = 0; first < t.values.size(); first += kProgressChunk) {
      const uint64_t last = std::min<uint64_t>(first + kProgressChunk, t.values.size());
      generate_range(problem, t.tensor, t.values.data(), first, last);
      done += last - first;
      if (on_progress) on_progress(double(done) / total);
    }
  }
  return inputs;
}

}  // namespace mish
