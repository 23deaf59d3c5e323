// Where a backend finds the layer's tensors: device memory for device backends (generated there
// by the same counter-based generator as the host inputs), host memory for host backends (a copy
// of the inputs, so a backend can never reach the run's own). The run poisons and reads y through
// them; the backend sees only their Tensors.
#pragma once
#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "backends/backend.h"
#include "cuda/device_buffer.h"
#include "problem/problem_data.h"

namespace mish {

class ProblemBuffers {
 public:
  virtual ~ProblemBuffers() = default;
  virtual Tensors tensors() = 0;
  // Fills y with NaN (all-ones bytes), so an element the backend never writes fails.
  virtual void poison_output() = 0;
  // Copies y to `y` once the work that writes it has finished.
  virtual void read_output(std::vector<float>& y) = 0;
};

class DeviceProblemBuffers final : public ProblemBuffers {
 public:
  DeviceProblemBuffers(const Problem& problem, cudaStream_t stream);
  Tensors tensors() override;
  void poison_output() override;
  void read_output(std::vector<float>& y) override;

 private:
  cudaStream_t stream_;
  DeviceBuffer<float> x_, w_, b_, y_;
};

class HostProblemBuffers final : public ProblemBuffers {
 public:
  explicit HostProblemBuffers(const ProblemData& data);
  Tensors tensors() override;
  void poison_output() override;
  void read_output(std::vector<float>& y) override;

 private:
  std::vector<float> x_, w_, b_, y_;
};

}  // namespace mish
