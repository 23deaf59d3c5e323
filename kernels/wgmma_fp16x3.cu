// The fused Hopper layer: y = mish(mish(x * W^T + b)), x [m,k], W [n,k], fp32, computed in one
// sm_90a kernel on fp16 tensor cores (wgmma) with FP32-level accuracy.
//
// Split precision (fp16x3). Each row of x and of W is scaled by a power of two so that its largest
// magnitude sits in [2^4, 2^5) (kWgmmaRowTopExponent), then split into hi = fp16(v) and
// lo = fp16(v - hi) (row_split_fp16.cu). Then x.w = 2^-(ex+ew) * (xh.wh + xh.wl + xl.wh) +
// O(2^-22 |x||w|): the dropped xl.wl term and the rounding of lo are both ~2^-22 relative, below
// fp32's 2^-24 ulp once summed over K. fp16 x fp16 products are exact in the tensor core; what
// loses bits is the tensor core's own accumulation, which truncates and so drifts as K grows.
// Hence two measures:
// - Promotion: each K chunk (kWgmmaPromoteK = 256, the first of each tile kWgmmaFirstChunkK = 512
//   plus any remainder of K beyond whole chunks) is accumulated in the wgmma accumulators (started
//   from zero), then added into separate fp32 registers with ordinary round-to-nearest FADDs; the
//   fp16 corrections run on over kWgmmaCorrectionPromoteChunks chunks before theirs.
// - The main product xh.wh has fp32 accumulators of its own; the two corrections xh.wl + xl.wh,
//   ~2^-11 of it, share fp16 accumulators, whose 11 bits relative to the corrections are ~2^-22
//   of the main product, so the corrections never round against the main product's size
//   (results/notes/2026-12-04-perf-notes.md has the measurements). The low row scale keeps the corrections' chunk
//   sums far inside fp16's range (kWgmmaRowTopExponent).
// Undoing the scales is two exact multiplications by powers of two.
//
// Tiles and roles. One CTA computes a 128 x 128 output tile; a persistent grid of one CTA per SM
// walks the tiles m-fastest within groups of group_m m tiles (TileWalk), so the CTAs in flight
// share each W tile through L2 while the group's x (by default at most 32 MiB as hi+lo,
// wgmma_default_group_m: all of x up to M = 1024 at K = 8192) stays L2-resident.
// 384 threads = 3 warpgroups:
//   warpgroup 0, producer: one thread issues TMA loads (cp.async.bulk.tensor.3d, 128-byte
//     swizzle) of the k block's four tiles, x hi/lo [128 x 64] and W hi/lo [128 x 64], into a
//     shared-memory ring of kWgmmaRingSlots 32 KiB slots, x's pair and W's pair, each guarded
//     by full/empty mbarriers (transposed: one slot a k block, see below).
//     It gives most of its registers to the consumers (setmaxnreg).
//   warpgroups 1 and 2, consumers: each owns 64 rows of the tile and issues, per k block, four
//     wgmma.m64n128k16.f32.f16.f16 (xh*wh) and eight wgmma.m64n128k16.f16.f16.f16 (xh*wl, xl*wh),
//     both operands from shared memory (K-major), as two wgmma groups. One k block's groups
//     stay in flight while the next block's are issued; a k block's slots are released once
//     the groups that read them have completed (see ConsumerRing). Inside a tile, promotions do
//     not drain the tensor cores: the main sums are promoted while the chunk's last
//     corrections run, the corrections while the next chunk's first main products run (see
//     consume for what this asks of the loop structure); only the tile's last corrections wait
//     for the pipe to empty.
// Epilogue in the same kernel, from registers: promoted sums * 2^-ex[row] * 2^-ew[col] + b[col],
// Mish twice (the one-exp form of mish.cuh), 8-byte stores. No intermediate y in global memory.
// It runs a few column groups at a time between the wgmma groups of the next tile's first chunk,
// so the tensor cores do not wait for it (see consume).
//
// Small batches. When the tiles are fewer than the SMs (m <= 128 at n = 8192: 64 tiles), the plan
// (WgmmaPlan) cuts K into slices so that every SM gets a (tile, slice) unit. At m <= 64 the layer
// is bound by streaming W, and a 128-row x tile would be mostly zeros, so the kernel computes the
// tile transposed (kTransposedN): W's 128 rows of the tile take wgmma's M side, 64 per consumer
// warpgroup, and x's rows, padded only to N = 8, 16, 32 or 64, take its N side, both operands
// from shared memory. A k block is one ring slot holding W's hi and lo and x's (TransposedRing),
// so x comes by TMA beside W and its latency hides in the ring like W's; the tensor-core work
// scales with x's rows instead of always covering 64; and a block's slot goes back as soon as its
// groups are done (wgmma_wait<0>), since there the W stream, not the tensor cores, sets the pace.
// The producer starts streaming W while the split of x still runs (programmatic dependent
// launch) and adds x's loads to those first slots once the split is done. With split-K, a tile's
// sums come in parts, which every CTA publishes to a workspace; the last CTA of the tile to
// finish (an integer arrival counter) adds them in slice order and runs the epilogue, so the
// output is bit-identical from run to run (combine_parts). Where the plan gives each CTA one unit
// of a two-slice tile on the transposed path (WgmmaPlan::pairs, m <= 64 at n = 8192), the two
// CTAs of a tile run as a cluster instead and each finishes half of the tile's outputs, adding the
// other's part of them from the other's shared memory (add_partner_half): after the later CTA's
// last k block come no global-memory round trip and only half the epilogue, which measured
// 2-3 us at m = 64 (results/notes/2026-12-04-perf-notes.md).
//
// Operand layouts. x's split is in rows: a box takes 128 bytes of k from each of its rows. W's is
// in tile blocks (wgmma_w_split_layout): a box of W is one 16 KiB span and a tile's boxes follow
// each other, so each CTA reads W from DRAM in long runs; at M = 16-256 that measured up to 3 %
// faster than W in rows (results/notes/2026-12-04-perf-notes.md).
//
// Shapes: any m, n, k. x's tiles and k blocks past the matrix edges are loaded as zeros by TMA
// (the tensor map knows the true extents), W's are zeros in its blocks; the epilogue stores only
// the rows and columns inside y.
#include <cudaTypedefs.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/common/rounding.h"
#include "base/cuda/cuda_check.cuh"
#include "hopper_ptx.cuh"
#include "mish.cuh"
#include "wgmma_fp16x3.cuh"

namespace mish {
namespace {

constexpr int kTileM = kWgmmaTileM;
constexpr int kTileN = kWgmmaTileN;
constexpr int kBlockK = kWgmmaBlockK;
constexpr int kSlots = kWgmmaRingSlots;
[[maybe_unused]] constexpr int kPromoteBlocks = kWgmmaPromoteK / kBlockK;
[[maybe_unused]] constexpr int kCorrectionChunks = kWgmmaCorrectionPromoteChunks;
constexpr int kConsumerWarpgroups = 2;
constexpr int kThreads = kWgmmaThreads;
static_assert(kThreads == 128 * (1 + kConsumerWarpgroups), "a producer and the consumers");
constexpr int kRowsPerConsumer = kTileM / kConsumerWarpgroups;  // the wgmma M
[[maybe_unused]] constexpr int kConsumerWarps = 4 * kConsumerWarpgroups;  // each releases a slot
[[maybe_unused]] constexpr int kConsumerThreads = 128 * kConsumerWarpgroups;
static_assert(kTileM == kTileN, "one slot shape serves both operands");
static_assert(kBlockK * 2 == 128, "a k block row is one 128-byte swizzle span");
static_assert(kWgmmaPromoteK % kBlockK == 0 && kWgmmaFirstChunkK % kBlockK == 0,
              "promotion happens at k-block boundaries");

// One ring slot: a 128-row k block of a split operand, its hi plane, then its lo plane.
struct alignas(1024) Slot {  // 1024: the 128-byte swizzle pattern repeats every 8 rows
  __half planes[2][kTileM * kBlockK];
};
static_assert(sizeof(Slot) == 32 * 1024, "kWgmmaRingSlots counts 32 KiB slots");
constexpr int kPlaneBytes = sizeof(Slot::planes[0]);

struct SharedStorage {
  Slot slots[kSlots];      // the ring (the transposed path cuts it into slots of its own)
  uint64_t full[kSlots];   // TMA bytes landed
  uint64_t empty[kSlots];  // consumers done reading
  int last_arrival;        // this CTA was the last of its tile's to finish (combine_parts)
  uint64_t pair_ready;     // pairs: the partner CTA's half is staged (add_partner_half)
};
constexpr size_t kSharedBytes = sizeof(SharedStorage) + 1024;  // + alignment slack

// The ring of the transposed path (x's rows padded to kN <= 64): a slot holds one k block, W's
// hi and lo planes of the tile's 128 rows, then x's hi and lo planes of kN rows, in as many slots
// as the ring's bytes hold (6 at kN = 8 and 16, 5 at 32, 4 at 64).
template <int kN>
struct TransposedRing {
  static constexpr int kXPlaneBytes = kN * kBlockK * sizeof(__half);
  static constexpr int kSlotBytes = 2 * kPlaneBytes + 2 * kXPlaneBytes;
  static constexpr int kSlots = sizeof(SharedStorage::slots) / kSlotBytes;
  static_assert(kXPlaneBytes % 1024 == 0, "every plane starts on a swizzle pattern");
  static_assert(kSlots > 1 && kSlots <= kWgmmaRingSlots, "the barriers cover the slots");

  static __device__ __forceinline__ unsigned char* slot(SharedStorage& s, int i) {
    return reinterpret_cast<unsigned char*>(s.slots) + i * kSlotBytes;
  }
  static __device__ __forceinline__ unsigned char* w_plane(SharedStorage& s, int i, int plane) {
    return slot(s, i) + plane * kPlaneBytes;
  }
  static __device__ __forceinline__ unsigned char* x_plane(SharedStorage& s, int i, int plane) {
    return slot(s, i) + 2 * kPlaneBytes + plane * kXPlaneBytes;
  }
};

__device__ int g_sm90a_build = 0;

__global__ void probe_sm90a_build() {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  g_sm90a_build = 1;
#endif
}

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

struct TileCoords {
  int m0, n0;
};

// One CTA's piece of work: a slice of K (k blocks [block_begin, block_end)) of an output tile.
struct WorkUnit {
  int tile;  // index in the walk's order, which numbers the split-K workspace and counters
  TileCoords at;
  int slice, block_begin, block_end;

  __device__ __forceinline__ int blocks() const { return block_end - block_begin; }
};

// The order of the work: the slices of a tile are adjacent; the tiles go in groups of `group_m`
// m tiles (the last group may hold fewer), each walked m-fastest across all n tiles, so that the
// CTAs in flight share W tiles and a bounded stretch of x through L2.
struct TileWalk {
  int m_tiles, n_tiles, group_m;
  int slices, slice_blocks, k_blocks;

  __device__ __forceinline__ int tiles() const { return m_tiles * n_tiles; }
  __device__ __forceinline__ int units() const { return tiles() * slices; }

  __device__ __forceinline__ TileCoords coords(int tile) const {
    const int group_tiles = group_m * n_tiles;
    const int group = tile / group_tiles, within = tile % group_tiles;
    const int first_m = group * group_m;
    const int rows = min(group_m, m_tiles - first_m);
    return {(first_m + within % rows) * kTileM, (within / rows) * kTileN};
  }

  __device__ __forceinline__ WorkUnit unit(int index) const {
    const int tile = index / slices, slice = index % slices;
    const int begin = slice * slice_blocks;
    return {tile, coords(tile), slice, begin, min(begin + slice_blocks, k_blocks)};
  }
};

// The CTA's k blocks in the order the producer loads them and the consumers take them: its work
// units (blockIdx.x, then gridDim.x apart), each unit's k blocks in turn.
struct BlockCursor {
  int index;  // the work unit
  WorkUnit unit;
  int kb;  // the k block

  __device__ __forceinline__ void start(const TileWalk& walk) {
    index = blockIdx.x;
    if (index < walk.units()) {
      unit = walk.unit(index);
      kb = unit.block_begin;
    }
  }
  __device__ __forceinline__ bool valid(const TileWalk& walk) const {
    return index < walk.units();
  }
  __device__ __forceinline__ void next(const TileWalk& walk) {
    if (++kb < unit.block_end) return;
    index += gridDim.x;
    if (index < walk.units()) {
      unit = walk.unit(index);
      kb = unit.block_begin;
    }
  }
};

// A place in a ring of kRing slots: the slot, and the parity of the pass over the ring (the
// mbarrier phase).
template <int kRing>
struct RingPosition {
  int slot = 0;
  uint32_t phase = 0;

  __device__ __forceinline__ void advance() {
    if (++slot == kRing) {
      slot = 0;
      phase ^= 1;
    }
  }
};

// The TMA coordinates of k block kb of one plane: of x's rows from `row` (a [2][m][k] tensor), and
// of W's tile from row n0, whose planes lie in tile blocks (wgmma_w_split_layout), a
// [boxes][128][64] tensor.
struct BoxAt {
  int k0, row, part;
};
__device__ __forceinline__ BoxAt x_box(int row, int kb, int plane) {
  return {kb * kBlockK, row, plane};
}
__device__ __forceinline__ BoxAt w_box(const TileWalk& walk, int n0, int kb, int plane) {
  const SplitTileBlocks w{nullptr, walk.k_blocks, kTileN, kBlockK};
  return {0, 0, static_cast<int>(w.piece(n0, kb * kBlockK, plane))};
}

__device__ __forceinline__ void tma_load_box(void* dst, const CUtensorMap* map, uint64_t* full,
                                             BoxAt at) {
  tma_load_tile(dst, map, full, at.k0, at.row, at.part);
}

// Fills the slot at `at` (once the consumers have released it) with both planes of a split
// operand's k block, box(plane) for each; then moves on.
template <typename BoxOfPlane>
__device__ __forceinline__ void load_slot(SharedStorage& s, RingPosition<kSlots>& at,
                                          const CUtensorMap* map, BoxOfPlane box) {
  mbarrier_wait(&s.empty[at.slot], at.phase ^ 1);
  uint64_t* full = &s.full[at.slot];
  mbarrier_arrive_expect_tx(full, 2 * kPlaneBytes);
#pragma unroll
  for (int plane = 0; plane < 2; ++plane)
    tma_load_box(s.slots[at.slot].planes[plane], map, full, box(plane));
  at.advance();
}

// The ring's order, which the consumers follow: per k block, x's slot, then W's.
__device__ void produce(SharedStorage& s, const CUtensorMap* x_map, const CUtensorMap* w_map,
                        const TileWalk& walk) {
  RingPosition<kSlots> at;
  for (int index = blockIdx.x; index < walk.units(); index += gridDim.x) {
    const WorkUnit u = walk.unit(index);
    for (int kb = u.block_begin; kb < u.block_end; ++kb) {
      load_slot(s, at, x_map, [&](int plane) { return x_box(u.at.m0, kb, plane); });
      load_slot(s, at, w_map, [&](int plane) { return w_box(walk, u.at.n0, kb, plane); });
    }
  }
}

// The transposed path's producer: one slot a k block, W's planes of the tile's rows and x's
// planes of its first kN rows. W is ready before the launch, x only once the split of x that runs
// before this kernel has finished: so the ring's first pass gets W's loads first, then the wait
// for that kernel (cudaGridDependencySynchronize), then x's loads of the same slots.
template <int kN>
__device__ void produce_transposed(SharedStorage& s, const CUtensorMap* x_map,
                                   const CUtensorMap* w_map, const TileWalk& walk) {
  using Ring = TransposedRing<kN>;
  const auto load_w = [&](int slot, const BlockCursor& c) {
#pragma unroll
    for (int plane = 0; plane < 2; ++plane)
      tma_load_box(Ring::w_plane(s, slot, plane), w_map, &s.full[slot],
                   w_box(walk, c.unit.at.n0, c.kb, plane));
  };
  const auto load_x = [&](int slot, const BlockCursor& c) {
#pragma unroll
    for (int plane = 0; plane < 2; ++plane)
      tma_load_box(Ring::x_plane(s, slot, plane), x_map, &s.full[slot], x_box(0, c.kb, plane));
  };
  RingPosition<Ring::kSlots> at;
  BlockCursor c{};
  c.start(walk);
  int first_pass = 0;  // blocks loaded before x was ready
  for (; c.valid(walk) && first_pass < Ring::kSlots; c.next(walk), ++first_pass) {
    mbarrier_arrive_expect_tx(&s.full[at.slot], Ring::kSlotBytes);  // the slots start empty
    load_w(at.slot, c);
    at.advance();
  }
  cudaGridDependencySynchronize();
  BlockCursor again{};
  again.start(walk);
  for (int slot = 0; slot < first_pass; ++slot, again.next(walk)) load_x(slot, again);
  for (; c.valid(walk); c.next(walk)) {
    mbarrier_wait(&s.empty[at.slot], at.phase ^ 1);
    mbarrier_arrive_expect_tx(&s.full[at.slot], Ring::kSlotBytes);
    load_w(at.slot, c);
    load_x(at.slot, c);
    at.advance();
  }
}

// Accumulator fragment of wgmma m64n128 (per thread, 64 floats): element 4j+q sits at
// row (warp % 4) * 16 + lane / 4 + 8 * (q / 2), column 8j + 2 * (lane % 4) + q % 2.
// A finished tile's epilogue runs during the next tile's first chunk, which spans
// kFirstChunkBlocks k blocks: after each k block's wgmma groups are issued, the consumer stores
// kGroupsPerBlock column groups j (small enough to finish while the tensor cores work through the
// queued groups) and loads the operands of the next ones, so no load latency sits in its way.
constexpr int kAccumulatorColumnGroups = 16;  // j = 0..15
constexpr int kFirstChunkBlocks = kWgmmaFirstChunkK / kBlockK;
constexpr int kGroupsPerBlock = kAccumulatorColumnGroups / kFirstChunkBlocks;
constexpr int kSumsPerBlock = 4 * kGroupsPerBlock;  // a thread's sums in those column groups
static_assert(kAccumulatorColumnGroups % kFirstChunkBlocks == 0, "whole column groups per block");
static_assert(kFirstChunkBlocks % kPromoteBlocks == 0, "later chunks start at a chunk boundary");

// The epilogue's kInside: the tile lies wholly inside y, whose n is even, so no operand load or
// store needs a bounds check and the checks' branches are compiled out (store_tile). The
// epilogue inside the next tile's first chunk keeps the checks: it hides behind tensor work.

// Stores v.x at row[col] and v.y at row[col + 1], each only inside the row (n columns); one 8-byte
// store when both are inside and the pair is 8-byte aligned (n even, col even).
template <bool kInside>
__device__ __forceinline__ void store_pair(float* row, int col, int n, float2 v) {
  if (kInside || (col + 1 < n && n % 2 == 0)) {
    *reinterpret_cast<float2*>(row + col) = v;
  } else {
    if (col < n) row[col] = v.x;
    if (col + 1 < n) row[col + 1] = v.y;
  }
}

// This thread's two rows of a consumer's 64-row slice of a tile, with their x unscale factors.
// Rows past y's edge hold zeros from the zero-filled loads; they are not stored.
struct EpilogueRows {
  int row0, row1;
  float unscale0, unscale1;
};

__device__ __forceinline__ EpilogueRows epilogue_rows(const WgmmaLayerOperands& p, int row_base) {
  const int lane = threadIdx.x % 32;
  const int row0 = row_base + (threadIdx.x / 32 % 4) * 16 + lane / 4;
  const int row1 = row0 + 8;
  const int m = static_cast<int>(p.m);
  return {row0, row1, row0 < m ? p.x_unscale[row0] : 0.0f, row1 < m ? p.x_unscale[row1] : 0.0f};
}

// W unscale factors and biases of this thread's two columns in column group j of a tile.
struct EpilogueColumns {
  float2 unscale, bias;
};

__device__ __forceinline__ int epilogue_column(int n0, int j) {
  return n0 + 8 * j + 2 * (threadIdx.x % 4);  // even
}

// Brings a tile's epilogue operands into L1 when its k blocks start: x's unscale factors of its
// rows (consumer 0, a row a thread) and W's unscale factors and biases of its columns (consumer
// 1). The CTA's last tile is stored in a loop that loads each step's operands one step ahead
// (store_tile): by then they should be in L1, not a round trip to L2 behind the ring's traffic.
__device__ __forceinline__ void prefetch_epilogue_operands(const WgmmaLayerOperands& p,
                                                           TileCoords tile, int consumer) {
  const int i = threadIdx.x % 128;
  if (consumer == 0) {
    prefetch_l1(p.x_unscale + min(tile.m0 + i, static_cast<int>(p.m) - 1));
  } else {
    const int col = min(tile.n0 + i, static_cast<int>(p.n) - 1);
    prefetch_l1(p.w_unscale + col);
    prefetch_l1(p.bias + col);
  }
}

// Loads the operands of the kGroupsPerBlock column groups stored after k block `block`.
template <bool kInside>
__device__ __forceinline__ void load_epilogue_columns(EpilogueColumns (&c)[kGroupsPerBlock],
                                                      const WgmmaLayerOperands& p, int n0,
                                                      int block) {
  const int n = static_cast<int>(p.n);
#pragma unroll
  for (int g = 0; g < kGroupsPerBlock; ++g) {
    const int col = epilogue_column(n0, block * kGroupsPerBlock + g);
    if (kInside || col + 1 < n) {
      c[g] = {*reinterpret_cast<const float2*>(p.w_unscale + col),
              *reinterpret_cast<const float2*>(p.bias + col)};
    } else {
      c[g] = {make_float2(col < n ? p.w_unscale[col] : 0.0f, 0.0f),
              make_float2(col < n ? p.bias[col] : 0.0f, 0.0f)};
    }
  }
}

// Unscale, bias, Mish twice and store the column groups after k block `block`, whose sums sit in
// the register array as those of block `sum_block` (a compile-time constant after unrolling).
template <bool kInside>
__device__ __forceinline__ void store_epilogue_columns(const float (&sum)[64],
                                                       const WgmmaLayerOperands& p,
                                                       const EpilogueRows& r,
                                                       const EpilogueColumns (&c)[kGroupsPerBlock],
                                                       int n0, int block, int sum_block) {
  const int m = static_cast<int>(p.m), n = static_cast<int>(p.n);
#pragma unroll
  for (int g = 0; g < kGroupsPerBlock; ++g) {
    const int col = epilogue_column(n0, block * kGroupsPerBlock + g);
    const int i = kSumsPerBlock * sum_block + 4 * g;
    float2 out0, out1;
    out0.x = mish(mish(sum[i + 0] * r.unscale0 * c[g].unscale.x + c[g].bias.x));
    out0.y = mish(mish(sum[i + 1] * r.unscale0 * c[g].unscale.y + c[g].bias.y));
    out1.x = mish(mish(sum[i + 2] * r.unscale1 * c[g].unscale.x + c[g].bias.x));
    out1.y = mish(mish(sum[i + 3] * r.unscale1 * c[g].unscale.y + c[g].bias.y));
    if (kInside || r.row0 < m) store_pair<kInside>(p.y + int64_t(r.row0) * n, col, n, out0);
    if (kInside || r.row1 < m) store_pair<kInside>(p.y + int64_t(r.row1) * n, col, n, out1);
  }
}

// The tensor-core accumulators of an m64nN wgmma: the main product (hi * hi) in fp32, the two
// correction products (hi * lo + lo * hi) in fp16 (see the header comment). Each set starts from
// zero, accumulates over its own stretch of K and is then promoted (added in fp32) into the
// tile's sums, kValues of them a thread.
template <int kN>
struct Accumulators {
  static constexpr int kValues = kN / 2;
  float main[kValues];
  uint32_t corrections[kValues / 2];  // fp16 pairs, see Wgmma<N>::f16

  // Keep the compiler from moving reads of a set above the wgmma wait that completes it.
  __device__ __forceinline__ void pin_main() {
#pragma unroll
    for (int i = 0; i < kValues; ++i) asm volatile("" : "+f"(main[i])::"memory");
  }
  __device__ __forceinline__ void pin_corrections() {
#pragma unroll
    for (int i = 0; i < kValues / 2; ++i) asm volatile("" : "+r"(corrections[i])::"memory");
  }

  // Element i of the corrections, in fp32.
  __device__ __forceinline__ float correction(int i) const {
    const uint32_t pair = corrections[i / 2];
    const uint16_t bits = static_cast<uint16_t>(i % 2 == 0 ? pair & 0xffffu : pair >> 16);
    return __half2float(__ushort_as_half(bits));
  }

  __device__ __forceinline__ void promote_main(float (&sum)[kValues]) {
    pin_main();
#pragma unroll
    for (int i = 0; i < kValues; ++i) sum[i] += main[i];
  }
  __device__ __forceinline__ void promote_corrections(float (&sum)[kValues]) {
    pin_corrections();
#pragma unroll
    for (int i = 0; i < kValues; ++i) sum[i] += correction(i);
  }
};

// k16 steps of a k block, and how far one moves a shared-memory descriptor: 16 fp16 = 32 bytes, in
// the descriptor's 16-byte units.
constexpr int kBlockSteps = kBlockK / 16;
constexpr uint64_t kStepDescriptorUnits = (16 * sizeof(__half)) >> 4;

// A consumer's operands of one k block: the descriptors of wgmma's A (hi, lo) and B (hi, lo) at
// the block's first k16 step.
struct BlockOperands {
  uint64_t a_hi, a_lo, b_hi, b_lo;
};

// Each k block is two wgmma groups: the main products a_hi * b_hi of its k16 steps, then their
// corrections a_hi * b_lo, a_lo * b_hi. `reset`: the group's first product overwrites its
// accumulator set (scale-d = 0).
template <int kN>
__device__ __forceinline__ void issue_main(Accumulators<kN>& acc, const BlockOperands& b,
                                           bool reset) {
  wgmma_fence();
#pragma unroll
  for (int k16 = 0; k16 < kBlockSteps; ++k16) {
    const uint64_t k_offset = k16 * kStepDescriptorUnits;
    Wgmma<kN>::f32(acc.main, b.a_hi + k_offset, b.b_hi + k_offset, !reset || k16 > 0);
  }
  wgmma_commit();
}

template <int kN>
__device__ __forceinline__ void issue_corrections(Accumulators<kN>& acc, const BlockOperands& b,
                                                  bool reset) {
  wgmma_fence();
#pragma unroll
  for (int k16 = 0; k16 < kBlockSteps; ++k16) {
    const uint64_t k_offset = k16 * kStepDescriptorUnits;
    Wgmma<kN>::f16(acc.corrections, b.a_hi + k_offset, b.b_lo + k_offset, !reset || k16 > 0);
    Wgmma<kN>::f16(acc.corrections, b.a_lo + k_offset, b.b_hi + k_offset, 1u);
  }
  wgmma_commit();
}

// The 128 x 128 tiles' accumulators: x's 64 rows of the consumer by W's 128.
using TileAccumulators = Accumulators<kTileN>;

// Hands a ring slot back to the producer: one arrival per consumer warp.
__device__ __forceinline__ void release_slot(SharedStorage& s, int slot) {
  __syncwarp();
  if (threadIdx.x % 32 == 0) mbarrier_arrive(&s.empty[slot]);
}

// A consumer warpgroup's walk through the shared-memory ring of the 128 x 128 tiles, in the
// producer's order (two slots a k block, x's and W's), and which k block's slots it still holds,
// noted by the ring index of its first slot (kNone: none). The tensor cores bound the kernel
// there: a block's groups stay queued behind the next block's, and its slots go back once the
// next block is issued and its own groups are done.
struct ConsumerRing {
  static constexpr int kNone = -1;
  RingPosition<kSlots> at;
  int held = kNone;    // the last k block whose groups may still be in flight
  int issued = kNone;  // the k block just waited for by wait_block

  __device__ __forceinline__ const Slot& wait_slot(SharedStorage& s) {
    const int slot = at.slot;
    mbarrier_wait(&s.full[slot], at.phase);
    at.advance();
    return s.slots[slot];
  }

  // Waits for the next k block's slots and notes them in `issued`: wgmma's A is x at the
  // consumer's rows, B is W.
  __device__ __forceinline__ BlockOperands wait_block(SharedStorage& s, int row_offset) {
    issued = at.slot;
    const Slot& x = wait_slot(s);
    const Slot& w = wait_slot(s);
    const int x_row = row_offset * kBlockK;
    return {smem_descriptor(x.planes[0] + x_row), smem_descriptor(x.planes[1] + x_row),
            smem_descriptor(w.planes[0]), smem_descriptor(w.planes[1])};
  }

  // Hands the slots of the k block whose first slot is `first` back to the producer.
  __device__ __forceinline__ void release(SharedStorage& s, int first) {
    __syncwarp();
    if (threadIdx.x % 32 == 0 && first != kNone) {
#pragma unroll
      for (int i = 0; i < 2; ++i) mbarrier_arrive(&s.empty[(first + i) % kSlots]);
    }
  }

  // Waits for the next k block and issues both of its groups (not waited for); `reset_main` and
  // `reset_corrections`: that group's first product overwrites its accumulators.
  __device__ __forceinline__ void issue_block(SharedStorage& s, TileAccumulators& acc,
                                              int row_offset, bool reset_main,
                                              bool reset_corrections) {
    const BlockOperands b = wait_block(s, row_offset);
    issue_main(acc, b, reset_main);
    issue_corrections(acc, b, reset_corrections);
  }

  // Hands back the slots of the block before the one just issued, once its groups are done.
  __device__ __forceinline__ void release_previous(SharedStorage& s) {
    wgmma_wait<2>();
    release(s, held);
    held = issued;
  }

  // Promotes the chunk just issued and issues the first k block of the next chunk of the same
  // tile, without draining: the main sums are promoted as soon as their group is done, while the
  // chunk's last corrections still run (and before the wait for the next k block's data); then,
  // when `corrections_due`, the corrections once they are done, while the new chunk's main
  // products run, and the new chunk starts them afresh.
  __device__ __forceinline__ void next_chunk(SharedStorage& s, TileAccumulators& acc,
                                             float (&sum)[64], int row_offset,
                                             bool corrections_due) {
    wgmma_wait<1>();
    acc.promote_main(sum);
    const BlockOperands b = wait_block(s, row_offset);
    issue_main(acc, b, true);
    wgmma_wait<1>();
    release(s, held);
    if (corrections_due) acc.promote_corrections(sum);
    issue_corrections(acc, b, corrections_due);
    held = issued;
  }

  // Promotes the tile's last chunk: the main sums while the last corrections run, then the
  // corrections once every group is done.
  __device__ __forceinline__ void end_tile(SharedStorage& s, TileAccumulators& acc,
                                           float (&sum)[64]) {
    wgmma_wait<1>();
    acc.promote_main(sum);
    wgmma_wait<0>();
    release(s, held);
    held = kNone;
    acc.promote_corrections(sum);
  }
};

// The consumer threads of the CTA (both warpgroups, not the producer) meet at named barrier 1.
__device__ __forceinline__ void consumers_meet() {
  asm volatile("bar.sync 1, %0;" ::"n"(kConsumerThreads) : "memory");
}

// Sums of a tile split over CTAs (split-K slices): every consumer publishes its kValues sums a
// thread to the workspace, [slice][tile][consumer][element i][thread], coalesced per i, and the
// CTA counts itself in on the tile's counter. The last CTA to arrive adds up the parts of this
// thread's outputs in slice order from the workspace: the result is bit-identical whichever CTA
// arrives last. It resets the counter and returns true with the total in `sum`; the others zero
// `sum` and return false.
template <int kValues>
__device__ bool combine_parts(SharedStorage& s, const WgmmaLayerOperands& p, const TileWalk& walk,
                              const WorkUnit& unit, int consumer, float (&sum)[kValues]) {
  constexpr int kThreadsPerPart = 128;
  const int thread = threadIdx.x % kThreadsPerPart;
  const auto part = [&](int slice) {
    return p.workspace +
           ((int64_t(slice) * walk.tiles() + unit.tile) * kConsumerWarpgroups + consumer) *
               kValues * kThreadsPerPart +
           thread;
  };
  float* mine = part(unit.slice);
#pragma unroll
  for (int i = 0; i < kValues; ++i) __stcg(mine + i * kThreadsPerPart, sum[i]);
  // One thread orders the consumers' stores (made before the barrier) ahead of the arrival, and,
  // if last, the other CTAs' parts ahead of the consumers' loads after the second barrier.
  consumers_meet();
  if (threadIdx.x == 128) {
    __threadfence();
    s.last_arrival = atomicAdd(&p.counters[unit.tile], 1) == walk.slices - 1;
    if (s.last_arrival) __threadfence();
  }
  consumers_meet();
#pragma unroll
  for (int i = 0; i < kValues; ++i) sum[i] = 0.0f;
  if (!s.last_arrival) return false;
  for (int slice = 0; slice < walk.slices; ++slice) {
    const float* from = part(slice);
#pragma unroll
    for (int i = 0; i < kValues; ++i) sum[i] += __ldcg(from + i * kThreadsPerPart);
  }
  if (threadIdx.x == 128) p.counters[unit.tile] = 0;
  return true;
}

// Unscale, bias, Mish twice and store a finished tile's sums with no next tile's work to hide
// behind, a k block's column groups a step. This code runs once, at the CTA's end, so its
// instructions come cold from L2 or DRAM behind the other CTAs' ring traffic: unrolled over all
// eight blocks it took ~25 k cycles at M = 256, rolled ~14.5 k, and two blocks an iteration,
// branch-free inside y, with each step's operands loaded a step ahead, ~10 k
// (results/notes/2026-12-04-perf-notes.md). The block's sums are the first in `sum` (register indices must be
// compile-time constants), shifted down after each step; its operands were asked into L1 when the
// tile started (prefetch_epilogue_operands).
template <bool kInside>
__device__ __forceinline__ void store_tile_columns(float (&sum)[64], const WgmmaLayerOperands& p,
                                                   const EpilogueRows& rows, int n0) {
  EpilogueColumns next[kGroupsPerBlock];
  load_epilogue_columns<kInside>(next, p, n0, 0);
#pragma unroll 2
  for (int block = 0; block < kFirstChunkBlocks; ++block) {
    EpilogueColumns columns[kGroupsPerBlock];
#pragma unroll
    for (int g = 0; g < kGroupsPerBlock; ++g) columns[g] = next[g];
    // The last step loads its own operands again rather than branch.
    load_epilogue_columns<kInside>(next, p, n0, min(block + 1, kFirstChunkBlocks - 1));
    store_epilogue_columns<kInside>(sum, p, rows, columns, n0, block, 0);
#pragma unroll
    for (int i = 0; i + kSumsPerBlock < 64; ++i) sum[i] = sum[i + kSumsPerBlock];
  }
}

__device__ __forceinline__ void store_tile(float (&sum)[64], const WgmmaLayerOperands& p,
                                           TileCoords tile, int row_offset) {
  const EpilogueRows rows = epilogue_rows(p, tile.m0 + row_offset);
  if (tile.m0 + kTileM <= p.m && tile.n0 + kTileN <= p.n && p.n % 2 == 0)
    store_tile_columns<true>(sum, p, rows, tile.n0);
  else
    store_tile_columns<false>(sum, p, rows, tile.n0);
}

// Each tile: K in chunks; the main products are promoted after each chunk, the corrections after
// every kCorrectionChunks chunks and after the tile's first and last chunks. The first chunk has
// kFirstChunkBlocks k blocks plus the remainder of K beyond whole chunks (up to
// kPromoteBlocks - 1 more), the others kPromoteBlocks. Every promotion reads accumulators of
// groups issued in the same loop iteration: ptxas tracks wgmma groups only within straight-line
// code and serializes every wgmma if a read could belong to a group issued in an earlier
// iteration. So each tile's groups are issued and completed inside its iteration, and each
// chunk's promotion sits at the end of the iteration that issued it.
// The finished tile's epilogue does not stall the tensor cores: it runs kGroupsPerBlock column
// groups at a time during the next tile's first chunk, each part right after a k block's groups
// are issued, while they execute: `sum` holds the finished tile until then, each column group set
// back to zero once stored, for the new tile's first promotion to add to. The CTA's last tile is
// stored after its loop.
__device__ void consume(SharedStorage& s, const WgmmaLayerOperands& p, int consumer,
                        const TileWalk& walk) {
  TileAccumulators acc;
  float sum[64];  // promoted fp32 sums of the tile (during the next tile's first chunk: the
                  // finished tile, being stored)
#pragma unroll
  for (int i = 0; i < 64; ++i) sum[i] = 0.0f;
  const int row_offset = consumer * kRowsPerConsumer;
  ConsumerRing ring;
  bool finished_tile = false;
  TileCoords finished{};
  for (int index = blockIdx.x; index < walk.units(); index += gridDim.x) {
    const WorkUnit unit = walk.unit(index);
    const TileCoords t = unit.at;
    prefetch_epilogue_operands(p, t, consumer);
    const int k_blocks = unit.blocks();
    const int first_chunk_blocks =
        k_blocks <= kFirstChunkBlocks
            ? k_blocks
            : kFirstChunkBlocks + (k_blocks - kFirstChunkBlocks) % kPromoteBlocks;
    // First chunk, with the finished tile's epilogue in the gaps of its first kFirstChunkBlocks
    // k blocks; each k block's column operands are loaded one k block ahead.
    EpilogueRows rows{};
    EpilogueColumns next[kGroupsPerBlock];
    if (finished_tile) {
      rows = epilogue_rows(p, finished.m0 + row_offset);
      load_epilogue_columns<false>(next, p, finished.n0, 0);
    }
#pragma unroll
    for (int kb = 0; kb < kFirstChunkBlocks + kPromoteBlocks - 1; ++kb) {
      const bool has_block = kb < first_chunk_blocks;
      if (has_block) ring.issue_block(s, acc, row_offset, kb == 0, kb == 0);
      if (kb < kFirstChunkBlocks && finished_tile) {
        EpilogueColumns current[kGroupsPerBlock];
#pragma unroll
        for (int g = 0; g < kGroupsPerBlock; ++g) current[g] = next[g];
        if (kb + 1 < kFirstChunkBlocks)
          load_epilogue_columns<false>(next, p, finished.n0, kb + 1);
        store_epilogue_columns<false>(sum, p, rows, current, finished.n0, kb, kb);
#pragma unroll
        for (int i = kSumsPerBlock * kb; i < kSumsPerBlock * (kb + 1); ++i) sum[i] = 0.0f;
      }
      if (has_block) ring.release_previous(s);
    }
    if (first_chunk_blocks == k_blocks) {
      ring.end_tile(s, acc, sum);
    } else {
      ring.next_chunk(s, acc, sum, row_offset, true);
      // The other chunks; each iteration issues the rest of its chunk and promotes it.
      for (int chunk = first_chunk_blocks, index = 0; chunk < k_blocks;
           chunk += kPromoteBlocks, ++index) {
#pragma unroll
        for (int kb = 1; kb < kPromoteBlocks; ++kb) {
          ring.issue_block(s, acc, row_offset, false, false);
          ring.release_previous(s);
        }
        if (chunk + kPromoteBlocks == k_blocks) {
          ring.end_tile(s, acc, sum);
        } else {
          ring.next_chunk(s, acc, sum, row_offset,
                          index % kCorrectionChunks == kCorrectionChunks - 1);
        }
      }
    }
    // Split over CTAs: only the tile's last CTA to finish goes on to the epilogue, with the sum
    // of all parts.
    finished_tile = walk.slices == 1 || combine_parts(s, p, walk, unit, consumer, sum);
    finished = t;
  }
  if (finished_tile) store_tile(sum, p, finished, row_offset);
}

// The transposed path's outputs of this thread: y's columns n0 + 64 * consumer +
// (warp % 4) * 16 + lane / 4 and 8 more (W's rows, h = 0, 1), in y's rows 8j + 2 * (lane % 4) + r
// (x's rows, r = 0, 1), at sum[4j + 2h + r] of the Accumulators<kN> layout. Their epilogue
// operands are loaded when a unit starts: their latency then hides under the unit's k blocks
// instead of adding to the split-K tail. Rows past m and columns past n get zeros and are not
// stored.
template <int kN>
struct TransposedOutputs {
  int first_col;
  float col_unscale[2], col_bias[2];
  float row_unscale[kN / 4];  // [2j + r]

  __device__ __forceinline__ static int row(int j, int r) {
    return 8 * j + 2 * (threadIdx.x % 32 % 4) + r;
  }

  __device__ __forceinline__ void load(const WgmmaLayerOperands& p, int n0, int consumer) {
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n);
    first_col =
        n0 + consumer * kRowsPerConsumer + (threadIdx.x / 32 % 4) * 16 + threadIdx.x % 32 / 4;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = first_col + 8 * h;
      col_unscale[h] = col < n ? p.w_unscale[col] : 0.0f;
      col_bias[h] = col < n ? p.bias[col] : 0.0f;
    }
#pragma unroll
    for (int j = 0; j < kN / 8; ++j)
#pragma unroll
      for (int r = 0; r < 2; ++r)
        row_unscale[2 * j + r] = row(j, r) < m ? p.x_unscale[row(j, r)] : 0.0f;
  }

  // Unscale, bias, Mish twice and store the tile's sums: all of them (half < 0), or those of
  // W's rows +8h for h = half only (pairs, add_partner_half). Every output of a column is
  // computed, outside x's rows too (their sums are zeros), and only the store is conditional:
  // with the Mish inside the bounds check, each output ran alone in its own branch; this way the
  // column's kN / 4 outputs overlap (results/notes/2026-12-04-perf-notes.md).
  __device__ __forceinline__ void store(const float (&sum)[kN / 2], const WgmmaLayerOperands& p,
                                        int half) const {
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      if (half >= 0 && h != half) continue;
      const int col = first_col + 8 * h;
#pragma unroll
      for (int j = 0; j < kN / 8; ++j) {
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          const float out = mish(mish(
              sum[4 * j + 2 * h + r] * row_unscale[2 * j + r] * col_unscale[h] + col_bias[h]));
          if (row(j, r) < m && col < n) p.y[int64_t(row(j, r)) * n + col] = out;
        }
      }
    }
  }
};

// Pairs (WgmmaPlan::pairs): the cluster's two CTAs hold the two slices of one tile, one unit
// each, so their rings are free once their k blocks are done. CTA `slice` finishes the outputs of
// W's rows +8h for h = slice (sum[4j + 2h + r], TransposedOutputs): it stages the other half of
// its sums in its ring for its partner and adds the partner's staged part of its own half, p_0 +
// p_1 either way round (addition commutes), so the output is bit-identical from run to run.
// Every consumer thread arrives on the partner's pair_ready itself once its values are staged, so
// the partner's reads rest on no barrier between threads. Neither CTA exits before the other has
// read its shared memory: the kernel ends with a cluster barrier.
template <int kValues>
__device__ void add_partner_half(SharedStorage& s, int slice, float (&sum)[kValues]) {
  const int thread = threadIdx.x - 128;
  const uint32_t partner = cluster_cta_rank() ^ 1;
  float* staged = reinterpret_cast<float*>(s.slots);  // [2j + r][consumer thread]
  const auto at = [&](int j, int r) { return (2 * j + r) * kConsumerThreads + thread; };
  // The other consumer warpgroup's wgmma may still read the ring until it is past its last block
  // too (each waits for its own groups only).
  consumers_meet();
#pragma unroll
  for (int j = 0; j < kValues / 4; ++j)
#pragma unroll
    for (int r = 0; r < 2; ++r)
      staged[at(j, r)] = slice == 0 ? sum[4 * j + 2 + r] : sum[4 * j + r];
  mbarrier_arrive_cluster(cluster_address(&s.pair_ready, partner));
  mbarrier_wait<true>(&s.pair_ready, 0);
  const uint32_t theirs = cluster_address(staged, partner);
#pragma unroll
  for (int j = 0; j < kValues / 4; ++j)
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      const float part = load_shared_cluster(theirs + at(j, r) * sizeof(float));
      if (slice == 0)
        sum[4 * j + r] += part;
      else
        sum[4 * j + 2 + r] += part;
    }
}

// The transposed path's consumer (see the header comment): per k block, W's 64 rows of this
// consumer are wgmma's A and x's kN rows its B; the block's slot goes back as soon as its groups
// are done. The main sums are promoted every kPromoteBlocks blocks of the unit and at its end,
// the corrections every kCorrectionChunks such chunks and at its end; every read of the
// accumulators follows the wait for the groups that wrote them in the same iteration.
template <int kN>
__device__ void consume_transposed(SharedStorage& s, const WgmmaLayerOperands& p, int consumer,
                                   const TileWalk& walk) {
  using Ring = TransposedRing<kN>;
  constexpr int kCorrectionBlocks = kPromoteBlocks * kCorrectionChunks;
  Accumulators<kN> acc;
  float sum[Accumulators<kN>::kValues];
  RingPosition<Ring::kSlots> at;
  const int w_rows = consumer * kRowsPerConsumer * kBlockK;  // this consumer's rows of W's planes
  for (int index = blockIdx.x; index < walk.units(); index += gridDim.x) {
    const WorkUnit unit = walk.unit(index);
    TransposedOutputs<kN> outputs;
    outputs.load(p, unit.at.n0, consumer);
#pragma unroll
    for (int i = 0; i < Accumulators<kN>::kValues; ++i) sum[i] = 0.0f;
    for (int b = 0; b < unit.blocks(); ++b) {
      mbarrier_wait(&s.full[at.slot], at.phase);
      const __half* w_hi = reinterpret_cast<const __half*>(Ring::w_plane(s, at.slot, 0));
      const __half* w_lo = reinterpret_cast<const __half*>(Ring::w_plane(s, at.slot, 1));
      const BlockOperands operands{smem_descriptor(w_hi + w_rows), smem_descriptor(w_lo + w_rows),
                                   smem_descriptor(Ring::x_plane(s, at.slot, 0)),
                                   smem_descriptor(Ring::x_plane(s, at.slot, 1))};
      issue_main(acc, operands, b % kPromoteBlocks == 0);
      issue_corrections(acc, operands, b % kCorrectionBlocks == 0);
      wgmma_wait<0>();
      release_slot(s, at.slot);
      at.advance();
      const bool last = b + 1 == unit.blocks();
      if (last || (b + 1) % kPromoteBlocks == 0) acc.promote_main(sum);
      if (last || (b + 1) % kCorrectionBlocks == 0) acc.promote_corrections(sum);
    }
    if (p.pairs) {
      add_partner_half(s, unit.slice, sum);
      outputs.store(sum, p, unit.slice);
    } else if (walk.slices == 1 || combine_parts(s, p, walk, unit, consumer, sum)) {
      outputs.store(sum, p, -1);
    }
  }
}

#endif  // sm_90a

// kTransposedN: 0 for the 128 x 128 tiles, else the transposed path with x's rows padded to it.
template <int kTransposedN>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_fp16x3_layer_kernel(const __grid_constant__ CUtensorMap x_map,
                              const __grid_constant__ CUtensorMap w_map,
                              const WgmmaLayerOperands p) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char shared_raw[];
  const uintptr_t aligned = (reinterpret_cast<uintptr_t>(shared_raw) + 1023) & ~uintptr_t(1023);
  SharedStorage& s = *reinterpret_cast<SharedStorage*>(aligned);
  TileWalk walk;
  walk.m_tiles = static_cast<int>((p.m + kTileM - 1) / kTileM);
  walk.n_tiles = static_cast<int>((p.n + kTileN - 1) / kTileN);
  walk.group_m = p.group_m > 0 && p.group_m < walk.m_tiles ? p.group_m : walk.m_tiles;
  walk.k_blocks = static_cast<int>((p.k + kBlockK - 1) / kBlockK);
  walk.slices = p.slices > 1 ? p.slices : 1;
  walk.slice_blocks = p.slices > 1 ? p.slice_blocks : walk.k_blocks;
  const int warpgroup = threadIdx.x / 128;

  if (threadIdx.x == 0) {
    for (int i = 0; i < kSlots; ++i) {
      mbarrier_init(&s.full[i], 1);
      mbarrier_init(&s.empty[i], kConsumerWarps);
    }
    if (kTransposedN > 0 && p.pairs) mbarrier_init(&s.pair_ready, kConsumerThreads);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(&x_map)) : "memory");
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(&w_map)) : "memory");
  }
  __syncthreads();
  // Pairs: the partner's barriers are initialized before any arrival on them.
  if (kTransposedN > 0 && p.pairs) cluster_sync();
  // When launched as a programmatic dependent of the kernel before it (the split of x), all
  // above overlaps that kernel's run, and so does, on the transposed path, the producer's first
  // loads of W (prepared before the split): no thread reads x, its scales or the split-K
  // workspace before that kernel has completed (cudaGridDependencySynchronize).
  if (warpgroup == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 24;");
    if (threadIdx.x == 0) {
      if constexpr (kTransposedN == 0) {
        cudaGridDependencySynchronize();
        produce(s, &x_map, &w_map, walk);
      } else {
        produce_transposed<kTransposedN>(s, &x_map, &w_map, walk);
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 240;");
    cudaGridDependencySynchronize();
    if constexpr (kTransposedN == 0)
      consume(s, p, warpgroup - 1, walk);
    else
      consume_transposed<kTransposedN>(s, p, warpgroup - 1, walk);
  }
  // Pairs (transposed path only): the partner may still read this CTA's shared memory
  // (add_partner_half).
  if (kTransposedN > 0 && p.pairs) {
    __syncwarp();
    cluster_sync();
  }
#endif
}

// The instantiation for a plan's transposed_n (0: the 128 x 128 tiles).
using LayerKernel = void (*)(CUtensorMap, CUtensorMap, WgmmaLayerOperands);
constexpr int kTransposedNs[] = {8, 16, 32, 64};
static_assert(kTransposedNs[3] == kRowsPerConsumer, "the transposed path covers m <= 64");

LayerKernel layer_kernel(int transposed_n) {
  switch (transposed_n) {
    case 0: return wgmma_fp16x3_layer_kernel<0>;
    case 8: return wgmma_fp16x3_layer_kernel<8>;
    case 16: return wgmma_fp16x3_layer_kernel<16>;
    case 32: return wgmma_fp16x3_layer_kernel<32>;
    case 64: return wgmma_fp16x3_layer_kernel<64>;
  }
  throw std::invalid_argument("wgmma layer: no kernel for transposed_n " +
                              std::to_string(transposed_n));
}

PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    MISH_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                     cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr)
      throw std::runtime_error("the CUDA driver has no cuTensorMapEncodeTiled (needs CUDA 12+)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encode;
}

// A 3-d fp16 tensor (dims and strides innermost first) in [1 x box_rows x 64] boxes, 128-byte
// swizzled for wgmma; boxes reaching past its extents come with zeros there.
CUtensorMap split_operand_map(const __half* split, const cuuint64_t (&dims)[3],
                              const cuuint64_t (&strides_bytes)[2], int box_rows) {
  CUtensorMap map;
  const cuuint32_t box[3] = {kBlockK, cuuint32_t(box_rows), 1};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  const CUresult result = tensor_map_encoder()(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 3, const_cast<__half*>(split), dims,
      strides_bytes, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS)
    throw std::runtime_error("cuTensorMapEncodeTiled failed with CUresult " +
                             std::to_string(static_cast<int>(result)));
  return map;
}

// x's split (SplitRows) as a [2][m][k] tensor in boxes of box_rows rows.
CUtensorMap x_split_map(const __half* split, int64_t m, int64_t k, int box_rows) {
  const cuuint64_t stride = cuuint64_t(wgmma_split_row_stride(k)) * sizeof(__half);
  return split_operand_map(split, {cuuint64_t(k), cuuint64_t(m), 2}, {stride, m * stride},
                           box_rows);
}

// W's split in tile blocks (wgmma_w_split_layout) as a [boxes][128][64] tensor, one box each.
CUtensorMap w_split_map(const __half* split, int64_t n, int64_t k) {
  const int64_t boxes = wgmma_w_split_boxes(n, k);
  constexpr cuuint64_t kRowBytes = kBlockK * sizeof(__half);
  return split_operand_map(split, {kBlockK, kTileN, cuuint64_t(boxes)},
                           {kRowBytes, kTileN * kRowBytes}, kTileN);
}

}  // namespace

bool wgmma_kernel_available() {
  int device = 0;
  MISH_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  MISH_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  if (prop.major != 9 || prop.minor != 0) return false;
  probe_sm90a_build<<<1, 1>>>();
  MISH_CUDA_CHECK_LAUNCH();
  int built = 0;
  MISH_CUDA_CHECK(cudaMemcpyFromSymbol(&built, g_sm90a_build, sizeof(built)));
  return built == 1;
}

size_t wgmma_layer_shared_bytes() { return kSharedBytes; }

int wgmma_transposed_n(int64_t m) {
  for (const int n : kTransposedNs)
    if (m <= n) return n;
  return 0;
}

int wgmma_ring_slots(int transposed_n) {
  switch (transposed_n) {
    case 8: return TransposedRing<8>::kSlots;
    case 16: return TransposedRing<16>::kSlots;
    case 32: return TransposedRing<32>::kSlots;
    case 64: return TransposedRing<64>::kSlots;
  }
  return kSlots;
}

WgmmaPlan plan_wgmma_layer(int64_t m, int64_t n, int64_t k, int sms, int slices) {
  WgmmaPlan plan;
  plan.tiles = static_cast<int>(ceil_div(m, kTileM) * ceil_div(n, kTileN));
  const int k_blocks = static_cast<int>(ceil_div(k, kBlockK));
  constexpr int kMinSliceBlocks = kWgmmaMinSliceK / kBlockK;
  const int most = std::max(1, std::min(k_blocks, std::numeric_limits<int>::max() / plan.tiles));
  const int wanted = slices > 0 ? std::min(slices, most)
                                : std::max(1, std::min(sms / plan.tiles,
                                                       k_blocks / kMinSliceBlocks));
  plan.slice_blocks = static_cast<int>(ceil_div(k_blocks, wanted));
  plan.slices = static_cast<int>(ceil_div(k_blocks, plan.slice_blocks));
  plan.ctas = static_cast<int>(std::min<int64_t>(sms, int64_t(plan.tiles) * plan.slices));
  plan.transposed_n = wgmma_transposed_n(m);
  plan.pairs = plan.transposed_n > 0 && plan.slices == 2 && plan.ctas == plan.tiles * 2;
  if (plan.slices > 1 && !plan.pairs) {
    // A tile's sums, kTileN columns by its rows: kTileM, or transposed_n on the transposed path.
    const int rows = plan.transposed_n > 0 ? plan.transposed_n : kTileM;
    plan.counters = plan.tiles;
    plan.workspace_bytes =
        size_t(plan.slices) * size_t(plan.tiles) * size_t(rows) * kTileN * sizeof(float);
  }
  return plan;
}

int64_t wgmma_split_row_stride(int64_t k) { return round_up(k, 8); }

SplitRows wgmma_x_split_layout(__half* split, int64_t m, int64_t k) {
  return {split, m, wgmma_split_row_stride(k)};
}

int wgmma_default_group_m(int64_t k) {
  const int64_t tile_x_bytes =
      wgmma_x_split_layout(nullptr, kTileM, k).elements() * int64_t(sizeof(__half));
  return static_cast<int>(std::max<int64_t>(1, kWgmmaGroupXBytes / tile_x_bytes));
}

SplitTileBlocks wgmma_w_split_layout(__half* split, int64_t k) {
  return {split, ceil_div(k, kBlockK), kTileN, kBlockK};
}

int64_t wgmma_w_split_boxes(int64_t n, int64_t k) {
  return wgmma_w_split_layout(nullptr, k).pieces(n);
}

WgmmaTensorMaps prepare_wgmma_layer(const WgmmaLayerOperands& p) {
  if (p.m < 1 || p.n < 1 || p.k < 1) throw std::invalid_argument("wgmma layer: empty problem");
  for (const int transposed_n : {0, 8, 16, 32, 64})
    MISH_CUDA_CHECK(cudaFuncSetAttribute(layer_kernel(transposed_n),
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(kSharedBytes)));
  const int transposed_n = wgmma_transposed_n(p.m);
  return {x_split_map(p.x_split, p.m, p.k, transposed_n > 0 ? transposed_n : kTileM),
          w_split_map(p.w_split, p.n, p.k)};
}

void launch_wgmma_fp16x3_layer(const WgmmaLayerOperands& p, const WgmmaTensorMaps& maps, int ctas,
                               cudaStream_t stream) {
  // Small batches (split K or the transposed path): programmatic dependent launch, so the
  // kernel's blocks start while the split of x still runs and wait for it
  // (cudaGridDependencySynchronize) once set up. At larger m the split takes long enough for the
  // early blocks to cost more than the launch saves (results/notes/2026-12-04-perf-notes.md); there the launch waits
  // for it as usual.
  const int transposed_n = wgmma_transposed_n(p.m);
  cudaLaunchAttribute attributes[2]{};
  attributes[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attributes[0].val.programmaticStreamSerializationAllowed = p.slices > 1 || transposed_n > 0;
  attributes[1].id = cudaLaunchAttributeClusterDimension;
  attributes[1].val.clusterDim = {2, 1, 1};
  if (p.pairs && ctas % 2 != 0)
    throw std::invalid_argument("wgmma layer: pairs need an even number of CTAs");
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(ctas));
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = kSharedBytes;
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = p.pairs ? 2 : 1;
  MISH_CUDA_CHECK(cudaLaunchKernelEx(&config, layer_kernel(transposed_n), maps.x, maps.w, p));
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace mish
