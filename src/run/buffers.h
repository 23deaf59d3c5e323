// Where a backend finds the layer's tensors: device memory for device backends (generated there
// by the same counter-based generator as the host inputs), shared host memory for host backends
// (a copy of the inputs, so a backend can never reach the run's own). The run poisons and reads
// y through them, swaps in fresh x for the stale-output check, checks that the inputs are as
// generated and restores them, and shares them with worker processes (CUDA IPC handles, or the
// host memory's descriptor).
#pragma once
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend.h"
#include "outcome/outcome.h"
#include "problem/problem_data.h"

namespace mish {

// How a worker reaches the buffers: a description for its socket message, and the descriptors
// to pass along with it.
struct SharedTensors {
  nlohmann::json description;
  std::vector<int> fds;
};

class ProblemBuffers {
 public:
  virtual ~ProblemBuffers() = default;
  virtual Tensors tensors() = 0;
  // Fills y with NaN (all-ones bytes), so an element the backend never writes fails.
  virtual void poison_output() = 0;
  // Copies y to `y` once the work that writes it has finished.
  virtual void read_output(std::vector<float>& y) = 0;
  // Replaces x (the fresh-input check); restore_inputs() puts the problem's own back.
  virtual void load_x(const std::vector<float>& x) = 0;
  // The inputs that differ from `inputs`, bit for bit.
  virtual std::vector<InputChange> changed_inputs(const HostInputs& inputs) = 0;
  virtual void restore_inputs(const HostInputs& inputs) = 0;
  virtual SharedTensors share() = 0;
};

// x, W, b and y in device memory on the current device, the inputs generated there.
std::unique_ptr<ProblemBuffers> make_device_buffers(const Problem& problem, cudaStream_t stream);

// x, W, b and y in shared host memory, the inputs copied from `data`.
std::unique_ptr<ProblemBuffers> make_host_buffers(const ProblemData& data);

}  // namespace mish
