// Honest but unusual: the layer captured into a CUDA graph at setup(), on a private stream, and
// launched with cudaGraphLaunch(graph, stream) in every run(): one launch on the given stream,
// whose kernel is a graph node. The graph holds the tensors' addresses, so it is captured again
// when run() gets other pointers than the ones captured.
// Verdict: ok.
#include "device_layer.h"

namespace {

struct Graph {
  mishbench_shape shape;
  cudaStream_t capture_stream = nullptr;
  mishbench_tensors captured{};
  cudaGraphExec_t exec = nullptr;
};

void release(Graph* self) {
  if (self->exec != nullptr) cudaGraphExecDestroy(self->exec);
  if (self->capture_stream != nullptr) cudaStreamDestroy(self->capture_stream);
  delete self;
}

bool same_tensors(const mishbench_tensors& a, const mishbench_tensors& b) {
  return a.x == b.x && a.w == b.w && a.b == b.b && a.y == b.y;
}

// Captures the layer on `t` and makes it the instance's executable graph. A graph replaced while
// a launch of it is in flight is freed when that launch completes.
int capture(Graph* self, const mishbench_tensors& t, char* message, size_t size) {
  cudaError_t status =
      cudaStreamBeginCapture(self->capture_stream, cudaStreamCaptureModeThreadLocal);
  if (status != cudaSuccess)
    return test_plugin::cuda_status(status, "cudaStreamBeginCapture", message, size);
  const int layer =
      test_plugin::enqueue_layer(self->shape, t, self->capture_stream, message, size);
  cudaGraph_t graph = nullptr;
  status = cudaStreamEndCapture(self->capture_stream, &graph);
  if (layer != MISHBENCH_OK || status != cudaSuccess) {
    if (graph != nullptr) cudaGraphDestroy(graph);
    return layer != MISHBENCH_OK
               ? layer
               : test_plugin::cuda_status(status, "cudaStreamEndCapture", message, size);
  }
  cudaGraphExec_t exec = nullptr;
  status = cudaGraphInstantiateWithFlags(&exec, graph, 0);
  cudaGraphDestroy(graph);
  if (status != cudaSuccess)
    return test_plugin::cuda_status(status, "cudaGraphInstantiate", message, size);
  if (self->exec != nullptr) cudaGraphExecDestroy(self->exec);
  self->exec = exec;
  self->captured = t;
  return MISHBENCH_OK;
}

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors* t, const char*,
          void*, char* message, size_t size) {
  auto* self = new Graph{*shape};
  int status = test_plugin::cuda_status(
      cudaStreamCreateWithFlags(&self->capture_stream, cudaStreamNonBlocking), "cudaStreamCreate",
      message, size);
  if (status == MISHBENCH_OK) status = capture(self, *t, message, size);
  if (status != MISHBENCH_OK) {
    release(self);
    return status;
  }
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  auto* self = static_cast<Graph*>(instance);
  if (!same_tensors(*t, self->captured) && capture(self, *t, message, size) != MISHBENCH_OK)
    return MISHBENCH_ERROR;
  return test_plugin::cuda_status(cudaGraphLaunch(self->exec, static_cast<cudaStream_t>(stream)),
                                  "cudaGraphLaunch", message, size);
}

void teardown(void* instance) { release(static_cast<Graph*>(instance)); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("honest-graph", MISHBENCH_DEVICE, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
