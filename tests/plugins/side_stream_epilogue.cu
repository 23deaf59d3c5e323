// Cheat: the GEMM on the given stream, then bias + Mish + Mish on a side stream of its own that
// waits for the GEMM through an event and is never joined back, so the events around run() see
// the GEMM and not the epilogue. (The side stream does not block with the legacy default
// stream: a synchronous copy of y does not wait for it either.) A kernel audit that records every
// kernel sees mishtest_side_stream_epilogue run outside the call's window.
// Verdict: error, "outside the timed region", naming mishtest_side_stream_epilogue (a mismatch
// may be reported beside it).
#include "device_kernels.h"
#include "device_layer.h"
#include "mish.cuh"

// C linkage, so that the name a kernel record carries is this one, mangled or demangled.
extern "C" __global__ void mishtest_side_stream_epilogue(float* y, const float* b, int64_t m,
                                                         int64_t n) {
  const int64_t count = m * n;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    y[i] = mish::mish(mish::mish(y[i] + b[i % n]));
}

namespace {

struct SideStream {
  mishbench_shape shape;
  cudaStream_t side = nullptr;
  cudaEvent_t gemm_done = nullptr;
};

void release(SideStream* self) {
  if (self->gemm_done != nullptr) cudaEventDestroy(self->gemm_done);
  if (self->side != nullptr) cudaStreamDestroy(self->side);
  delete self;
}

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char* message, size_t size) {
  auto* self = new SideStream{*shape};
  int status = test_plugin::cuda_status(
      cudaStreamCreateWithFlags(&self->side, cudaStreamNonBlocking), "cudaStreamCreate", message,
      size);
  if (status == MISHBENCH_OK)
    status = test_plugin::cuda_status(
        cudaEventCreateWithFlags(&self->gemm_done, cudaEventDisableTiming), "cudaEventCreate",
        message, size);
  if (status != MISHBENCH_OK) {
    release(self);
    return status;
  }
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  const auto* self = static_cast<const SideStream*>(instance);
  const auto s = static_cast<cudaStream_t>(stream);
  if (test_plugin::gemm_only(self->shape, t->x, t->w, t->y, s, message, size) != MISHBENCH_OK)
    return MISHBENCH_ERROR;
  cudaError_t status = cudaEventRecord(self->gemm_done, s);
  if (status == cudaSuccess) status = cudaStreamWaitEvent(self->side, self->gemm_done, 0);
  if (status != cudaSuccess) return test_plugin::cuda_status(status, "fork", message, size);
  mishtest_side_stream_epilogue<<<264, 256, 0, self->side>>>(t->y, t->b, self->shape.m,
                                                            self->shape.n);
  return test_plugin::cuda_status(cudaGetLastError(), "epilogue launch", message, size);
}

void teardown(void* instance) {
  auto* self = static_cast<SideStream*>(instance);
  cudaStreamSynchronize(self->side);
  release(self);
}

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("side-stream-epilogue", MISHBENCH_DEVICE, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
