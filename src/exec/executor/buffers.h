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

#include "core/backend/backend.h"
#include "core/outcome/outcome.h"
#include "core/problem/problem_data.h"
#include "exec/executor/call_hooks.h"

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
  // Where the calls' outputs are kept (exec/executor/call_hooks.h), on the buffers' side.
  virtual OutputStore store() = 0;
  // Copies the output kept in `slot` to `y`, once the work that wrote it has finished.
  virtual void read_slot(uint32_t slot, std::vector<float>& y) = 0;
  // The inputs that differ from `inputs`, bit for bit (x is the last call's, after a series).
  virtual std::vector<InputChange> changed_inputs(const HostInputs& inputs) = 0;
  virtual void restore_inputs(const HostInputs& inputs) = 0;
  virtual SharedTensors share() = 0;
};

// x, W, b, y and an output store of `slots` slots in device memory on the current device, the
// inputs generated there.
std::unique_ptr<ProblemBuffers> make_device_buffers(const Problem& problem, uint32_t slots,
                                                    cudaStream_t stream);

// x, W, b, y and an output store of `slots` slots in shared host memory, the inputs copied from
// `data`.
std::unique_ptr<ProblemBuffers> make_host_buffers(const ProblemData& data, uint32_t slots);

// How many outputs a store keeps: every call of a series of `calls` (its warm-up, samples and
// the main-x call; 0 for a series of unknown length, then a default series') where that fits the
// budget (device memory, or for host backends the time the float64 references of the kept calls
// take on the CPU), never fewer than three.
uint32_t device_store_slots(const Problem& problem, uint64_t free_bytes, uint64_t calls);
uint32_t host_store_slots(const Problem& problem, double reference_ms, uint64_t calls);

}  // namespace mish
