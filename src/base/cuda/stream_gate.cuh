// A gate that holds a stream until the host has enqueued all of a timed sample's work, so the
// sample's start event and its kernels reach the GPU back to back: launch latency and host gaps
// stay out of the measurement (the approach nvbench calls a blocking kernel).
#pragma once
#include <cuda_runtime.h>

namespace mish {

// Host-visible flags in mapped pinned memory: the host sets `open` to release the gate; the gate
// sets `timed_out` when it gave up waiting (the host blocked while enqueuing, e.g. a synchronizing
// call), in which case the sample includes that wait.
struct GateFlags {
  volatile int open;
  volatile int timed_out;
};

// Enqueues the gate: one thread spins until flags->open != 0 or `timeout_ns` of GPU time passed.
void launch_stream_gate(GateFlags* flags, unsigned long long timeout_ns, cudaStream_t stream);

}  // namespace mish
