// One thread polls a host-written flag in mapped pinned memory, reading %globaltimer so a host
// that never opens the gate cannot hang the stream (see stream_gate.cuh).
#include "base/cuda/cuda_check.cuh"
#include "base/cuda/stream_gate.cuh"

namespace mish {
namespace {

__device__ unsigned long long global_timer_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

__global__ void stream_gate_kernel(GateFlags* flags, unsigned long long timeout_ns) {
  const unsigned long long start = global_timer_ns();
  while (flags->open == 0) {
    if (global_timer_ns() - start > timeout_ns) {
      flags->timed_out = 1;
      break;
    }
    __nanosleep(1000);
  }
}

}  // namespace

void launch_stream_gate(GateFlags* flags, unsigned long long timeout_ns, cudaStream_t stream) {
  stream_gate_kernel<<<1, 1, 0, stream>>>(flags, timeout_ns);
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace mish
