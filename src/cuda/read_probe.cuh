// A streaming read of a device buffer at the highest rate a kernel can draw: the read-bandwidth
// probe the memory floor of each problem is measured with (W, x read once, y written once).
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

// Reads `count` float4s of `data` once; each block writes one partial sum to `sink[block]` (it
// must hold kReadProbeMaxBlocksPerSm * sms floats), so no load can be dropped.
void launch_read_probe(const float4* data, size_t count, float* sink, int sms,
                       const ReadProbeShape& shape, cudaStream_t stream);

}  // namespace mish
