// Launch sizes of the elementwise and per-row kernels: a fixed block size, and for grid-stride
// loops one item per thread, at most 65536 blocks (the loop walks the rest), so any item count
// gets a valid, GPU-filling grid.
#pragma once
#include <cstdint>

namespace mish {

// Threads per block of the elementwise and per-row kernels (the per-row ones size their
// shared-memory reductions by it).
constexpr int kBlockThreads = 256;

inline unsigned grid_stride_blocks(uint64_t items, unsigned threads_per_block) {
  constexpr uint64_t kMaxBlocks = 65536;
  const uint64_t blocks = (items + threads_per_block - 1) / threads_per_block;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

}  // namespace mish
