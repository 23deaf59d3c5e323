#include "exec/executor/buffers.h"

#include <algorithm>

#include <fmt/format.h>

#include <cstring>
#include <limits>

#include "base/cuda/cuda_check.cuh"
#include "base/cuda/device_buffer.h"
#include "core/problem/generate_device.cuh"
#include "exec/executor/shared_memory.h"

namespace mish {
namespace {

// Element-wise comparison, after a fast byte check.
std::optional<InputChange> compare(const char* tensor, const float* now, const float* expected,
                                   uint64_t count) {
  if (std::memcmp(now, expected, count * sizeof(float)) == 0) return std::nullopt;
  InputChange change{tensor, 0, count, 0};
  for (uint64_t i = 0; i < count; ++i)
    if (std::memcmp(&now[i], &expected[i], sizeof(float)) != 0) {
      if (change.changed++ == 0) change.first = i;
    }
  return change;
}

std::string hex(const void* data, size_t bytes) {
  std::string text;
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) text += fmt::format("{:02x}", p[i]);
  return text;
}

std::string ipc_handle(const void* device_pointer) {
  cudaIpcMemHandle_t handle;
  MISH_CUDA_CHECK(cudaIpcGetMemHandle(&handle, const_cast<void*>(device_pointer)));
  return hex(&handle, sizeof(handle));
}

class DeviceProblemBuffers final : public ProblemBuffers {
 public:
  DeviceProblemBuffers(const Problem& problem, uint32_t slots, cudaStream_t stream);
  Tensors tensors() override;
  OutputStore store() override { return {store_.get(), slots_}; }
  void read_slot(uint32_t slot, std::vector<float>& y) override;
  std::vector<InputChange> changed_inputs(const HostInputs& inputs) override;
  void restore_inputs(const HostInputs& inputs) override;
  SharedTensors share() override;

 private:
  cudaStream_t stream_;
  uint32_t slots_;
  DeviceBuffer<float> x_, w_, b_, y_, store_;
};

// Host backends' tensors: one shared memory region, x, W, b and y one after the other, and the
// output store in a second one, so a worker process maps them all with two descriptors.
class HostProblemBuffers final : public ProblemBuffers {
 public:
  HostProblemBuffers(const ProblemData& data, uint32_t slots);
  Tensors tensors() override { return {x_, w_, b_, y_}; }
  OutputStore store() override { return {store_, slots_}; }
  void read_slot(uint32_t slot, std::vector<float>& y) override {
    const float* kept = store_ + uint64_t(slot) * problem_.y_count();
    y.assign(kept, kept + problem_.y_count());
  }
  std::vector<InputChange> changed_inputs(const HostInputs& inputs) override;
  void restore_inputs(const HostInputs& inputs) override;
  SharedTensors share() override;

 private:
  Problem problem_;
  uint32_t slots_;
  SharedMemory memory_;        // x, W, b and y
  SharedMemory store_memory_;  // the output store, a region of its own
  float *x_, *w_, *b_, *y_, *store_;
};

}  // namespace

DeviceProblemBuffers::DeviceProblemBuffers(const Problem& p, uint32_t slots, cudaStream_t stream)
    : stream_(stream), slots_(slots), x_(p.x_count()), w_(p.w_count()), b_(p.n),
      y_(p.y_count()), store_((uint64_t(slots) + 1) * p.y_count()) {
  const float bound = p.init_bound();
  generate_on_device(p.distribution, p.seed, Tensor::x, x_.get(), x_.size(), p.k, bound, stream);
  generate_on_device(p.distribution, p.seed, Tensor::w, w_.get(), w_.size(), p.k, bound, stream);
  generate_on_device(p.distribution, p.seed, Tensor::b, b_.get(), b_.size(), p.n, bound, stream);
  MISH_CUDA_CHECK(cudaStreamSynchronize(stream));
}

Tensors DeviceProblemBuffers::tensors() { return {x_.get(), w_.get(), b_.get(), y_.get()}; }

void DeviceProblemBuffers::read_slot(uint32_t slot, std::vector<float>& y) {
  MISH_CUDA_CHECK(cudaDeviceSynchronize());  // the slot may have been written by a worker
  y.resize(y_.size());
  MISH_CUDA_CHECK(cudaMemcpy(y.data(), store_.get() + uint64_t(slot) * y_.size(), y_.bytes(),
                             cudaMemcpyDeviceToHost));
}

std::vector<InputChange> DeviceProblemBuffers::changed_inputs(const HostInputs& inputs) {
  std::vector<InputChange> changes;
  std::vector<float> now;
  const auto check = [&](const char* name, const DeviceBuffer<float>& buffer,
                         const std::vector<float>& expected) {
    now.resize(buffer.size());
    MISH_CUDA_CHECK(cudaMemcpy(now.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost));
    if (auto change = compare(name, now.data(), expected.data(), buffer.size()))
      changes.push_back(*change);
  };
  MISH_CUDA_CHECK(cudaDeviceSynchronize());
  check("x", x_, inputs.x);
  check("W", w_, inputs.w);
  check("b", b_, inputs.b);
  return changes;
}

void DeviceProblemBuffers::restore_inputs(const HostInputs& inputs) {
  MISH_CUDA_CHECK(cudaMemcpy(x_.get(), inputs.x.data(), x_.bytes(), cudaMemcpyHostToDevice));
  MISH_CUDA_CHECK(cudaMemcpy(w_.get(), inputs.w.data(), w_.bytes(), cudaMemcpyHostToDevice));
  MISH_CUDA_CHECK(cudaMemcpy(b_.get(), inputs.b.data(), b_.bytes(), cudaMemcpyHostToDevice));
}

SharedTensors DeviceProblemBuffers::share() {
  return {{{"kind", "device"},
           {"x", ipc_handle(x_.get())},
           {"w", ipc_handle(w_.get())},
           {"b", ipc_handle(b_.get())},
           {"y", ipc_handle(y_.get())},
           {"store", ipc_handle(store_.get())},
           {"slots", slots_}},
          {}};
}

HostProblemBuffers::HostProblemBuffers(const ProblemData& data, uint32_t slots)
    : problem_(data.problem), slots_(slots),
      memory_(sizeof(float) * (data.problem.x_count() + data.problem.w_count() +
                               uint64_t(data.problem.n) + data.problem.y_count())),
      store_memory_(sizeof(float) * (uint64_t(slots) + 1) * data.problem.y_count()) {
  x_ = static_cast<float*>(memory_.data());
  w_ = x_ + problem_.x_count();
  b_ = w_ + problem_.w_count();
  y_ = b_ + problem_.n;
  store_ = static_cast<float*>(store_memory_.data());
  restore_inputs(data.inputs);
}

std::vector<InputChange> HostProblemBuffers::changed_inputs(const HostInputs& inputs) {
  std::vector<InputChange> changes;
  if (auto c = compare("x", x_, inputs.x.data(), inputs.x.size())) changes.push_back(*c);
  if (auto c = compare("W", w_, inputs.w.data(), inputs.w.size())) changes.push_back(*c);
  if (auto c = compare("b", b_, inputs.b.data(), inputs.b.size())) changes.push_back(*c);
  return changes;
}

void HostProblemBuffers::restore_inputs(const HostInputs& inputs) {
  std::copy(inputs.x.begin(), inputs.x.end(), x_);
  std::copy(inputs.w.begin(), inputs.w.end(), w_);
  std::copy(inputs.b.begin(), inputs.b.end(), b_);
}

SharedTensors HostProblemBuffers::share() {
  return {{{"kind", "host"},
           {"bytes", memory_.bytes()},
           {"x", 0},
           {"w", (w_ - x_) * sizeof(float)},
           {"b", (b_ - x_) * sizeof(float)},
           {"y", (y_ - x_) * sizeof(float)},
           {"store_bytes", store_memory_.bytes()},
           {"slots", slots_}},
          {memory_.fd(), store_memory_.fd()}};
}

std::unique_ptr<ProblemBuffers> make_device_buffers(const Problem& problem, uint32_t slots,
                                                    cudaStream_t stream) {
  return std::make_unique<DeviceProblemBuffers>(problem, slots, stream);
}

std::unique_ptr<ProblemBuffers> make_host_buffers(const ProblemData& data, uint32_t slots) {
  return std::make_unique<HostProblemBuffers>(data, slots);
}

namespace {

// A default series is 10 warm-up calls and 100 samples: with the main-x call, 111 to keep.
constexpr uint32_t kMaxSlots = 112;
constexpr uint32_t kMinSlots = 3;
// Device memory the store may take: an eighth of what is free, 4 GiB at most.
constexpr uint64_t kMaxStoreBytes = uint64_t(4) << 30;
// CPU time the float64 references of a host backend's kept calls may take, per series.
constexpr double kHostCheckBudgetMs = 10000.0;

uint32_t clamp_slots(double slots, uint64_t calls) {
  const double most = calls == 0 ? double(kMaxSlots) : double(std::min<uint64_t>(calls, kMaxSlots));
  return uint32_t(std::clamp(std::min(slots, most), double(kMinSlots), double(kMaxSlots)));
}

}  // namespace

uint32_t device_store_slots(const Problem& problem, uint64_t free_bytes, uint64_t calls) {
  const double budget = double(std::min(kMaxStoreBytes, free_bytes / 8));
  return clamp_slots(budget / (4.0 * double(problem.y_count())) - 1.0, calls);
}

uint32_t host_store_slots(const Problem& problem, double reference_ms, uint64_t calls) {
  const double by_time = kHostCheckBudgetMs / std::max(reference_ms, 1e-3);
  const double by_memory = double(uint64_t(1) << 30) / (4.0 * double(problem.y_count())) - 1.0;
  return clamp_slots(std::min(by_time, by_memory), calls);
}

}  // namespace mish
