// The worker's side of the run's buffers: the parent's device allocations opened through CUDA IPC,
// or its shared host memory mapped, as the Tensors a backend runs on.
#pragma once
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/backend.h"
#include "worker/shared_memory.h"

namespace mish {

class MappedTensors {
 public:
  // `description` as ProblemBuffers::share() wrote it; takes ownership of `fds`.
  MappedTensors(const nlohmann::json& description, std::vector<int> fds);
  ~MappedTensors();
  MappedTensors(const MappedTensors&) = delete;
  MappedTensors& operator=(const MappedTensors&) = delete;

  const Tensors& tensors() const { return tensors_; }

 private:
  Tensors tensors_;
  std::vector<void*> opened_;  // device pointers from cudaIpcOpenMemHandle
  std::unique_ptr<SharedMemory> host_;
};

}  // namespace mish
