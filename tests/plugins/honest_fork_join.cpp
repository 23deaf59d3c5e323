// Honest but unusual: the GEMM on the given stream, the epilogue on a side stream that waits for
// it through an event, and the given stream waiting for the epilogue through a second event
// before run() returns: all of the work is ordered inside the call, on two streams.
// Verdict: ok.
#include "device_kernels.h"
#include "device_layer.h"

namespace {

struct ForkJoin {
  mishbench_shape shape;
  cudaStream_t side = nullptr;
  cudaEvent_t fork = nullptr, join = nullptr;
};

void release(ForkJoin* self) {
  if (self->fork != nullptr) cudaEventDestroy(self->fork);
  if (self->join != nullptr) cudaEventDestroy(self->join);
  if (self->side != nullptr) cudaStreamDestroy(self->side);
  delete self;
}

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char* message, size_t size) {
  auto* self = new ForkJoin{*shape};
  cudaError_t status = cudaStreamCreateWithFlags(&self->side, cudaStreamNonBlocking);
  if (status == cudaSuccess)
    status = cudaEventCreateWithFlags(&self->fork, cudaEventDisableTiming);
  if (status == cudaSuccess)
    status = cudaEventCreateWithFlags(&self->join, cudaEventDisableTiming);
  if (status != cudaSuccess) {
    release(self);
    return test_plugin::cuda_status(status, "setup", message, size);
  }
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  const auto* self = static_cast<const ForkJoin*>(instance);
  const auto s = static_cast<cudaStream_t>(stream);
  if (test_plugin::gemm_only(self->shape, t->x, t->w, t->y, s, message, size) != MISHBENCH_OK)
    return MISHBENCH_ERROR;
  cudaError_t status = cudaEventRecord(self->fork, s);
  if (status == cudaSuccess) status = cudaStreamWaitEvent(self->side, self->fork, 0);
  if (status != cudaSuccess) return test_plugin::cuda_status(status, "fork", message, size);
  if (test_plugin::epilogue_only(self->shape, t->y, t->b, self->side, message, size) !=
      MISHBENCH_OK)
    return MISHBENCH_ERROR;
  status = cudaEventRecord(self->join, self->side);
  if (status == cudaSuccess) status = cudaStreamWaitEvent(s, self->join, 0);
  return test_plugin::cuda_status(status, "join", message, size);
}

void teardown(void* instance) { release(static_cast<ForkJoin*>(instance)); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("honest-fork-join", MISHBENCH_DEVICE, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
