#include "core/timing/graph.h"

#include <fmt/format.h>

#include "base/cuda/cuda_check.cuh"

namespace mish {
namespace {

// Ends a capture that did not finish (the enqueue threw) so the stream can be used again.
void abandon_capture(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) == cudaSuccess && status != cudaStreamCaptureStatusNone) {
    cudaGraph_t partial = nullptr;
    cudaStreamEndCapture(stream, &partial);
    if (partial != nullptr) cudaGraphDestroy(partial);
  }
  cudaGetLastError();  // capture errors are not sticky; clear them
}

}  // namespace

CapturedGraph::CapturedGraph(cudaStream_t stream, const std::function<void()>& enqueue) {
  // Global mode: any unsafe call (allocation, synchronization) from any thread fails the capture
  // instead of silently running outside the graph.
  MISH_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  try {
    enqueue();
  } catch (const std::exception& error) {
    abandon_capture(stream);
    throw GraphCaptureError(fmt::format("CUDA graph capture failed: {}", error.what()));
  }
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph_);
  if (ended != cudaSuccess) {
    abandon_capture(stream);
    throw GraphCaptureError(fmt::format("CUDA graph capture failed: {} ({})",
                                        cudaGetErrorName(ended), cudaGetErrorString(ended)));
  }
  try {
    MISH_CUDA_CHECK(cudaGraphGetNodes(graph_, nullptr, &nodes_));
    const cudaError_t instantiated = cudaGraphInstantiate(&exec_, graph_, 0);
    if (instantiated != cudaSuccess) {
      cudaGetLastError();
      throw GraphCaptureError(fmt::format("CUDA graph instantiation failed: {} ({})",
                                          cudaGetErrorName(instantiated),
                                          cudaGetErrorString(instantiated)));
    }
    MISH_CUDA_CHECK(cudaGraphUpload(exec_, stream));
  } catch (...) {
    release();  // the destructor does not run for a throwing constructor
    throw;
  }
}

void CapturedGraph::release() {
  if (exec_ != nullptr) MISH_CUDA_CHECK_NOTHROW(cudaGraphExecDestroy(exec_));
  if (graph_ != nullptr) MISH_CUDA_CHECK_NOTHROW(cudaGraphDestroy(graph_));
  exec_ = nullptr;
  graph_ = nullptr;
}

CapturedGraph::~CapturedGraph() { release(); }

void CapturedGraph::launch(cudaStream_t stream) const {
  MISH_CUDA_CHECK(cudaGraphLaunch(exec_, stream));
}

}  // namespace mish
