// Streaming reads of a device buffer: the read-bandwidth probe the memory floor of each problem
// is measured with (W, x read once, y written once), and the L2 flush run before each sample.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace mish {

// A grid shape for the probe; several are tried and the fastest counts (timer.cpp).
struct ReadProbeShape {
  int blocks_per_sm;
  int threads;
};
constexpr ReadProbeShape kReadProbeShapes[] = {{2, 1024}, {4, 512}, {8, 256}};
constexpr int kReadProbeMaxBlocksPerSm = 8;

// The floats a read's `sink` must hold on a device with `sms` multiprocessors: one per block of
// the largest grid.
inline size_t read_sink_floats(int sms) {
  return size_t(kReadProbeMaxBlocksPerSm) * size_t(sms > 0 ? sms : 1);
}

// Reads `count` float4s of `data` once, marked evict-first so the reads do not displace what the
// L2 holds; each block writes one partial sum to `sink[block]` (read_sink_floats(sms) floats),
// so no load can be dropped.
void launch_read_probe(const float4* data, size_t count, float* sink, int sms,
                       const ReadProbeShape& shape, cudaStream_t stream);

// The same read with ordinary L2 placement, so the buffer's lines take the L2 over: read over
// more bytes than the L2 holds, it evicts everything else, and dirty lines are written back
// while it runs. Same `sink` rule.
void launch_l2_evicting_read(const float4* data, size_t count, float* sink, int sms,
                             cudaStream_t stream);

}  // namespace mish
