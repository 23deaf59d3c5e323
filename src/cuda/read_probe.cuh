// A streaming read of a device buffer at the highest rate the kernel can draw: the read-bandwidth
// probe the memory floor of each problem is measured with (W, x read once, y written once).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace mish {

// Reads `count` float4s of `data` once; every block writes one partial sum to `sink[block]`
// (`sink` holds read_probe_blocks(sms) floats), so no load can be dropped.
void launch_read_probe(const float4* data, size_t count, float* sink, int sms, cudaStream_t stream);
int read_probe_blocks(int sms);

}  // namespace mish
