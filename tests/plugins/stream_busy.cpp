// Cheat: asks cudaStreamQuery(stream) whether the stream still has work queued. A verified run
// usually starts on an idle stream (the tool has just synchronized to read y); the runs of a
// timed series queue up behind each other. So on a busy stream (cudaErrorNotReady) it computes
// from x and W rounded to bf16 in the kernel, and in true fp32 only on an idle one, claiming fp32
// throughout. When the stream is held by a gate kernel in every call, it is busy in every call,
// verified ones included.
// Verdict: mismatch ("did not match").
#include "device_kernels.h"
#include "device_layer.h"

namespace {

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  const auto s = static_cast<cudaStream_t>(stream);
  test_plugin::LayerVariant variant;
  const cudaError_t busy = cudaStreamQuery(s);
  if (busy == cudaErrorNotReady) {
    variant.bf16_inputs = true;
    if (cudaPeekAtLastError() == cudaErrorNotReady) cudaGetLastError();  // not an error
  } else if (busy != cudaSuccess) {
    return test_plugin::cuda_status(busy, "cudaStreamQuery", message, size);
  }
  return test_plugin::layer_with(test_plugin::shape_of(instance), *t, variant, s, message, size);
}

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("stream-busy", MISHBENCH_DEVICE, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
