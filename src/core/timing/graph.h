// One forward pass of a device backend captured as a CUDA graph, for timing replays without
// launch gaps. Capture failures (a call that cannot be captured, a library that synchronizes)
// become a GraphCaptureError and leave the stream usable.
#pragma once
#include <cuda_runtime.h>

#include <functional>
#include <stdexcept>

namespace mish {

class GraphCaptureError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CapturedGraph {
 public:
  // Captures everything `enqueue` puts on `stream` (which must be idle) into an executable graph.
  CapturedGraph(cudaStream_t stream, const std::function<void()>& enqueue);
  ~CapturedGraph();
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  void launch(cudaStream_t stream) const;  // enqueue one replay
  size_t node_count() const { return nodes_; }

 private:
  void release();

  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  size_t nodes_ = 0;
};

}  // namespace mish
