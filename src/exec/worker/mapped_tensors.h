// The worker's side of the run's buffers: the parent's device allocations opened through CUDA IPC,
// or its shared host memory mapped, as the Tensors a backend runs on and the output store the
// harness keeps the calls' outputs in.
#pragma once
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend/backend.h"
#include "exec/executor/call_hooks.h"
#include "exec/executor/shared_memory.h"

namespace mish {

class MappedTensors {
 public:
  // `description` as ProblemBuffers::share() wrote it; takes ownership of `fds`.
  MappedTensors(const nlohmann::json& description, std::vector<int> fds);
  ~MappedTensors();
  MappedTensors(const MappedTensors&) = delete;
  MappedTensors& operator=(const MappedTensors&) = delete;

  const Tensors& tensors() const { return tensors_; }
  const OutputStore& store() const { return store_; }

 private:
  Tensors tensors_;
  OutputStore store_;
  std::vector<void*> opened_;  // device pointers from cudaIpcOpenMemHandle
  std::unique_ptr<SharedMemory> host_, host_store_;
};

}  // namespace mish
