#include "exec/executor/call_hooks.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "base/cuda/cuda_check.cuh"
#include "core/problem/generate_device.cuh"
#include "core/problem/generator.h"

namespace mish {
namespace {

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

// The reservoir's draws: splitmix64 over a counter.
uint64_t next_draw(uint64_t& state) { return splitmix64_mix(state += kGolden); }

}  // namespace

uint64_t call_seed(uint64_t nonce, uint64_t call) {
  // Neighbouring calls get unrelated seeds.
  return splitmix64_mix(nonce ^ ((call + 1) * kGolden));
}

void draw_x_on_host(const Problem& problem, uint64_t seed, float* x) {
  Problem drawn = problem;
  drawn.seed = seed;
  generate_tensor(drawn, Tensor::x, x, problem.x_count());
}

uint64_t seed_of_call(const Problem& problem, const CallPlan& plan, uint64_t index) {
  if (plan.main_x_first && index == 0) return problem.seed;
  return call_seed(plan.nonce, plan.first_call + index);
}

PreparedCalls::PreparedCalls(const Problem& problem, const Tensors& tensors,
                             const OutputStore& store, const CallPlan& plan, cudaStream_t stream,
                             std::function<void()> prefix, std::function<void()> suffix)
    : problem_(problem), tensors_(tensors), store_(store), plan_(plan), stream_(stream),
      prefix_(std::move(prefix)), suffix_(std::move(suffix)),
      draw_state_(call_seed(plan.nonce ^ 0x5bd1e995ULL, plan.first_call)) {
  if (store_.base == nullptr || store_.slots < (plan_.main_x_first ? 2u : 1u))
    throw std::logic_error("the output store has too few slots for the series");
}

void PreparedCalls::before(uint64_t index) {
  const uint64_t seed = seed_of_call(problem_, plan_, index);
  auto* x = const_cast<float*>(tensors_.x);
  if (stream_ != nullptr) {
    generate_on_device(problem_.distribution, seed, Tensor::x, x, problem_.x_count(),
                       uint64_t(problem_.k), problem_.init_bound(), stream_);
    MISH_CUDA_CHECK(cudaMemsetAsync(tensors_.y, 0xff, problem_.y_count() * sizeof(float), stream_));
  } else {
    draw_x_on_host(problem_, seed, x);
    std::fill(tensors_.y, tensors_.y + problem_.y_count(), std::numeric_limits<float>::quiet_NaN());
  }
  if (prefix_) prefix_();
}

void PreparedCalls::after(uint64_t index) {
  if (suffix_) suffix_();
  const uint64_t count = problem_.y_count();
  float* slot = store_.base + uint64_t(slot_for(index)) * count;
  if (stream_ != nullptr)
    MISH_CUDA_CHECK(cudaMemcpyAsync(slot, tensors_.y, count * sizeof(float),
                                    cudaMemcpyDeviceToDevice, stream_));
  else
    std::memcpy(slot, tensors_.y, count * sizeof(float));
}

// Slot 0 is the main-x call's when the plan has one; the others hold a reservoir sample
// (Algorithm R) of the remaining calls; `slots` itself is the scratch slot.
uint32_t PreparedCalls::slot_for(uint64_t index) {
  const uint64_t call = plan_.first_call + index;
  if (plan_.main_x_first && index == 0) {
    kept_.push_back({call, 0});
    return 0;
  }
  const uint32_t first = plan_.main_x_first ? 1 : 0;
  const uint64_t capacity = store_.slots - first;
  const uint64_t seen = offered_++;
  if (seen < capacity) {
    kept_.push_back({call, uint32_t(first + seen)});
    return uint32_t(first + seen);
  }
  const uint64_t draw = next_draw(draw_state_) % (seen + 1);
  if (draw >= capacity) return store_.slots;
  const uint32_t slot = uint32_t(first + draw);
  for (KeptOutput& kept : kept_)
    if (kept.slot == slot) kept.call = call;
  return slot;
}

std::vector<KeptOutput> PreparedCalls::kept() const { return kept_; }

}  // namespace mish
