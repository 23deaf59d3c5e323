// The small-batch layer: y = mish(mish(x * W^T + b)), x [m,k] with few rows, W [n,k], fp32, on
// mma.sync fp16 tensor cores with FP32-level accuracy, bound by one pass over W.
//
// Why this shape. At m <= 64 the layer is bound by reading W: 268 MB at n = k = 8192, ~60 us at
// the ~4.5 TB/s a streaming read reaches on an H200, against 3 x 2mnk fp16 tensor-core flops,
// 3.2 GFLOP at m = 8 and 26 at m = 64 (~5 and ~40 us if mma.sync ran at ~650 TFLOP/s, a lead).
// So the kernel streams W once, from every SM, with loads deep in flight, and keeps the
// arithmetic FP32-accurate on the way:
// - W is prepared once (prepack, timed apart) as fp16 hi + lo, each row scaled by its own 2^e
//   (largest magnitude into [2^13, 2^14): every product accumulates in fp32, so only fp16's range
//   bounds the scale, and the top of it keeps the most bits of small elements in lo), in
//   the order the tensor cores take it: per 16-row tile and 32-wide k block, a warp's four 16-byte
//   loads (the hi, then the lo, A fragments of the block's two k16 steps) read 2 KiB of contiguous
//   memory straight into mma.sync A-operand registers: no shared memory or ldmatrix for W. Lane
//   (g, t) holds k = 8t .. 8t + 7 of rows g and g + 8; the mma's logical k order within the block
//   is a fixed permutation of that, the same for x, so the sum is unchanged. The 16 tiles of a
//   CTA's 256 columns lie side by side per k block (32 KiB), so that what a CTA's warps load at
//   once is one contiguous span of DRAM rather than 16 spans 512 KiB apart.
// - x, small, goes through shared memory in chunks of 128 of K: cp.async copies (zero-filled past
//   m and k) with two chunks in flight, then each row of a chunk is scaled by its own power of two
//   and split into hi/lo in the kernel itself, spread between the mma groups of the chunk before,
//   so no split kernel runs before the layer.
// - Each warp owns two W tiles (32 output columns) for all of the CTA's x rows, with two k blocks
//   of W in registers (one in use, one landing; ld.global.cs, evict-first). Per 16 of K it issues
//   three mma.m16n8k16 per W tile and 8 rows of x, xh.wl, xl.wh, xh.wh (xl.wl is below fp32's
//   rounding), into fp32 accumulators that start from zero each chunk and are then promoted:
//   multiplied by the chunk's exact 2^-e row factor and added with round-to-nearest into fp32
//   sums in shared memory. Tensor cores truncate as they accumulate; 128 of K per promotion keeps
//   that drift far inside the tolerance (the wgmma kernel measured 256 safe and 1024 not).
// - Split-K: the CTAs of one 256-column tile cut K into `slices` stretches of whole chunks, so
//   that every SM pulls W even at m = 1 (32 tiles at n = 8192); the planner takes as many slices
//   as keep every CTA resident in one wave. Each CTA writes its fp32 partial sums to a workspace
//   and counts itself on the tile's integer counter; the last to arrive adds the partials in slice
//   order (its own, from shared memory, at its place in that order), so the output is bit-identical
//   from run to run whichever CTA arrives last. It drops the dead partials from L2 without
//   writing them back, resets the counter, and passes the sums through shared memory to store
//   whole rows of y, unscaled by W's row factor, plus the bias (both staged into shared memory
//   with the first x chunk, so that the tail does not wait on DRAM for them), through Mish twice
//   (mish.cuh).
// - m > 64: blocks of 64 rows of x, adjacent in the grid so that their CTAs share each W tile
//   through L2.
//
// Measured on an H200 (results/notes/2026-12-04-perf-notes.md): at m <= 16 the kernel reads W at 82-86 % of the DRAM
// peak (65-68 us at m = 1 by ncu, 65.4-65.6 us event-timed with the L2 flushed, 1.12 x the read
// probe's floor); at m = 64 it takes ~124 us with neither DRAM nor the tensor pipe busy. Asking
// L2 for W ahead (the prefetch_chunks option, or one k block at a time) and holding two more k
// blocks in shared memory both lowered the DRAM rate; the first is an option, off by default.
//
// Shapes: any m, n, k. W's rows past n and columns past k are zeros from prepack; x's rows past m
// and columns past k are zero-filled by the staging copies; stores are predicated on m and n.
#include <algorithm>
#include <stdexcept>

#include "base/common/rounding.h"
#include "base/cuda/cuda_check.cuh"
#include "cp_async.cuh"
#include "grid_stride.cuh"
#include "mish.cuh"
#include "split_precision.cuh"
#include "splitk_fp16x3.cuh"

namespace mish {
namespace {

constexpr int kTileRows = 16;  // rows of W (output columns) per mma A fragment
constexpr int kCtaTiles = kSplitkTileN / kTileRows;
constexpr int kChunkK = kSplitkChunkK;
constexpr int kBlockK = 32;  // K per 16-byte load of each lane and part
constexpr int kBlocksPerChunk = kChunkK / kBlockK;
constexpr int kWeightSlots = 2;  // k blocks of W a warp holds in registers
static_assert(kBlocksPerChunk % kWeightSlots == 0, "a k block's slot is fixed within a chunk");
constexpr int kParts = 4;  // per tile and k block: hi of k16 steps 0 and 1, lo of steps 0, 1
// Row strides of the staged fp32 x (floats) and of its split halves: 16 bytes of padding put the
// eight rows a warp reads at once on different banks.
constexpr int kStagedStride = kChunkK + 4;
constexpr int kSplitStride = kChunkK + 8;

// Where lane `lane`'s 16 bytes of part `part` of W tile `tile`, k block `block`, are (in uint4s):
// [CTA tile][k block][tile within it][part][lane].
__host__ __device__ constexpr int64_t fragment_index(int64_t tile, int64_t k_blocks,
                                                     int64_t block, int part, int lane) {
  return (((tile / kCtaTiles * k_blocks + block) * kCtaTiles + tile % kCtaTiles) * kParts + part) *
             32 +
         lane;
}
// From one k block of a tile to the next (in uint4s), as fragment_index lays them out.
constexpr int64_t kFragmentBlockStride =
    fragment_index(0, 2, 1, 0, 0) - fragment_index(0, 2, 0, 0, 0);

// One instantiation of the layer kernel: 8 * kRowTiles rows of x per CTA, 8 warps of two W tiles
// each. (16 warps of one tile each, measured on the H200 with the planner's split-K, took 5 to
// 22 % longer at every m from 1 to 256 but 32, where they were 2 % faster: half the independent
// mma chains per warp and twice the shared-memory reads of x.)
template <int kRowTiles_>
struct Shape {
  static constexpr int kRowTiles = kRowTiles_;
  static constexpr int kRows = 8 * kRowTiles;
  static constexpr int kWarps = 8;
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kTilesPerWarp = kCtaTiles / kWarps;
  static constexpr int kSums = kTilesPerWarp * kRowTiles;  // accumulators (float4) per thread
};

// W's 16-row tiles, whole CTA tiles of them: those past n are zeros.
int64_t weight_tiles(int64_t n) { return ceil_div(n, kSplitkTileN) * kCtaTiles; }
int64_t weight_k_blocks(int64_t k) { return ceil_div(k, kBlockK); }

// Whether rows of `row_length` floats from `rows` move in 16-byte pieces: whole float4s a row,
// the first 16-byte aligned (x's staging copies, y's stores).
bool float4_rows(const float* rows, int64_t row_length) {
  return row_length % 4 == 0 && is_aligned(rows, 16);
}

// ---- prepack ---------------------------------------------------------------------------------

// One warp per row of W: the largest magnitude gives the row's exponent e, stored as 2^-e.
__global__ void weight_unscale_kernel(const float* w, int64_t n, int64_t k, float* unscale) {
  const int64_t row = int64_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= n) return;
  const float* in = w + row * k;
  float largest = 0.0f;
#pragma unroll 4
  for (int64_t c = lane; c < k; c += 32) largest = fmaxf(largest, fabsf(in[c]));
  for (int offset = 16; offset > 0; offset /= 2)
    largest = fmaxf(largest, __shfl_xor_sync(0xffffffffu, largest, offset));
  if (lane == 0)
    unscale[row] = ldexpf(1.0f, -fp16_row_scale_exponent(largest));
}

__device__ __forceinline__ uint32_t pack_halves(__half low_k, __half high_k) {
  return uint32_t(__half_as_ushort(low_k)) | (uint32_t(__half_as_ushort(high_k)) << 16);
}

// One thread per (tile, k block, lane (g, t)): k = 8t .. 8t + 7 of rows g and g + 8 of the tile,
// scaled by each row's 2^e (the exact inverse of its unscale factor), split, and written as the
// four A fragments of the block's two k16 steps, hi then lo.
__global__ void weight_fragment_kernel(const float* w, int64_t n, int64_t k, const float* unscale,
                                       int64_t k_blocks, int64_t items, uint4* fragments) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < items; i += stride) {
    const int lane = static_cast<int>(i % 32);
    const int64_t block = i / 32 % k_blocks, tile = i / (32 * k_blocks);
    const int64_t k0 = block * kBlockK + 8 * (lane % 4);
    HalfSplit v[2][8];  // [row g, row g + 8][k0 + j]
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int64_t row = tile * kTileRows + half * 8 + lane / 4;
      const float scale = row < n ? 1.0f / unscale[row] : 0.0f;
#pragma unroll
      for (int j = 0; j < 8; ++j)
        v[half][j] = split_fp16(row < n && k0 + j < k ? w[row * k + k0 + j] * scale : 0.0f);
    }
    // Step s's fragment: (row g, k pair 4s), (row g + 8, 4s), (row g, 4s + 2), (row g + 8, 4s + 2).
#pragma unroll
    for (int step = 0; step < 2; ++step) {
      uint32_t hi[4], lo[4];
#pragma unroll
      for (int word = 0; word < 4; ++word) {
        const int half = word % 2, j = 4 * step + 2 * (word / 2);
        hi[word] = pack_halves(v[half][j].hi, v[half][j + 1].hi);
        lo[word] = pack_halves(v[half][j].lo, v[half][j + 1].lo);
      }
      fragments[fragment_index(tile, k_blocks, block, step, lane)] =
          make_uint4(hi[0], hi[1], hi[2], hi[3]);
      fragments[fragment_index(tile, k_blocks, block, 2 + step, lane)] =
          make_uint4(lo[0], lo[1], lo[2], lo[3]);
    }
  }
}

// ---- the layer kernel ------------------------------------------------------------------------

struct LayerParams {
  const float* x;
  const uint4* w;
  const float* w_unscale;
  const float* bias;
  float* y;
  float4* workspace;
  int* counters;
  int m, n, k;
  int k_blocks;
  int m_blocks, n_tiles, slices, chunks, chunks_per_slice;
  int prefetch_chunks;  // chunks of W requested into L2 ahead of the one multiplied
  int x_vector;         // stage x with 16-byte copies
  int y_vector;         // store y in 16-byte pieces
};

template <class S>
struct SharedStorage {
  float staged[2][S::kRows][kStagedStride];    // fp32 x chunks as copied
  __half split[2][2][S::kRows][kSplitStride];  // [slot][hi, lo][row][k]: scaled halves
  float x_unscale[2][S::kRows];                // 2^-e of each row of the chunk in a slot
  union {
    float4 sums[S::kWarps][S::kSums][32];  // promoted sums, in accumulator layout
    float finished[S::kRows][kSplitkTileN];  // the tile's sums by row, on the way to y
  };
  float column_unscale[kSplitkTileN];          // W's row factor and the bias of the CTA's
  float column_bias[kSplitkTileN];             // columns, for the epilogue
  int last;                                    // this CTA arrived last at its tile's counter
};

// mma.sync m16n8k16 and cp.async need sm_80; a build for older targets holds the host code and
// empty kernels, and splitk_kernel_available() says so.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define MISH_SPLITK_DEVICE_CODE 1
#endif

__device__ int g_splitk_arch = 0;

__global__ void probe_splitk_arch() {
#if defined(__CUDA_ARCH__)
  g_splitk_arch = __CUDA_ARCH__;
#endif
}

#if defined(MISH_SPLITK_DEVICE_CODE)

// Starts copying chunk `chunk` of the CTA's x rows into staged slot `slot` (zeros past m, past k
// and for chunk >= chunk_end), as one cp.async group.
template <class S, int kBytes>
__device__ __forceinline__ void stage_pieces(SharedStorage<S>& s, int slot, const LayerParams& p,
                                             int m0, int k0) {
  constexpr int kPerRow = kChunkK * 4 / kBytes, kPieces = S::kRows * kPerRow;
#pragma unroll 4
  for (int i = threadIdx.x; i < kPieces; i += S::kThreads) {
    const int row = i / kPerRow, col = (i % kPerRow) * kBytes / 4;
    const bool valid = m0 + row < p.m && k0 + col < p.k;
    copy_async<kBytes>(&s.staged[slot][row][col],
                       valid ? p.x + int64_t(m0 + row) * p.k + k0 + col : p.x, valid);
  }
}

// Starts copying the epilogue's per-column operands of the CTA's columns (zeros past n), in the
// same cp.async group as the first x chunk: read at the very end, they land under the main loop
// instead of adding a DRAM round trip to the split-K tail.
template <class S>
__device__ __forceinline__ void stage_columns(SharedStorage<S>& s, const LayerParams& p,
                                              int n_tile) {
  static_assert(S::kThreads == kSplitkTileN, "one thread per column of the CTA tile");
  const int n = n_tile * kSplitkTileN + threadIdx.x;
  const bool valid = n < p.n;
  copy_async<4>(&s.column_unscale[threadIdx.x], valid ? p.w_unscale + n : p.w_unscale, valid);
  copy_async<4>(&s.column_bias[threadIdx.x], valid ? p.bias + n : p.bias, valid);
}

template <class S>
__device__ __forceinline__ void stage_chunk(SharedStorage<S>& s, int slot, const LayerParams& p,
                                            int m0, int chunk, int chunk_end) {
  if (chunk < chunk_end) {
    if (p.x_vector)
      stage_pieces<S, 16>(s, slot, p, m0, chunk * kChunkK);
    else
      stage_pieces<S, 4>(s, slot, p, m0, chunk * kChunkK);
  }
  copy_async_commit();  // possibly empty: every iteration waits on the same group count
}

// The split of a staged chunk into scaled hi/lo halves. kThreadsPerRow consecutive threads own a
// row; each converts kGroups float4 groups of it, group f at column 4 * (sub + kThreadsPerRow f).
template <class S>
struct ChunkSplit {
  static constexpr int kThreadsPerRow = S::kThreads / S::kRows;
  static constexpr int kGroups = kChunkK / 4 / kThreadsPerRow;
  static_assert(kThreadsPerRow <= 32 && 32 % kThreadsPerRow == 0, "a row's threads share a warp");

  int row, sub;
  float scale;  // 2^e of the row

  __device__ __forceinline__ ChunkSplit()
      : row(threadIdx.x / kThreadsPerRow), sub(threadIdx.x % kThreadsPerRow), scale(1.0f) {}

  __device__ __forceinline__ int column(int group) const {
    return 4 * (sub + kThreadsPerRow * group);
  }

  // The row's exponent from its largest magnitude in the chunk; records the row's unscale.
  __device__ __forceinline__ void find_scale(SharedStorage<S>& s, int slot) {
    float largest = 0.0f;
#pragma unroll
    for (int f = 0; f < kGroups; ++f) {
      const float4 v = *reinterpret_cast<const float4*>(&s.staged[slot][row][column(f)]);
      largest = fmaxf(largest, fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w))));
    }
#pragma unroll
    for (int offset = kThreadsPerRow / 2; offset > 0; offset /= 2)
      largest = fmaxf(largest, __shfl_xor_sync(0xffffffffu, largest, offset));
    const int e = fp16_row_scale_exponent(largest);
    scale = ldexpf(1.0f, e);
    if (sub == 0) s.x_unscale[slot][row] = ldexpf(1.0f, -e);
  }

  // Splits the groups f with f % kBlocksPerChunk == part (one share per k block of the chunk
  // being multiplied meanwhile).
  __device__ __forceinline__ void split_part(SharedStorage<S>& s, int slot, int part) {
#pragma unroll
    for (int f = part; f < kGroups; f += kBlocksPerChunk) {
      const float4 v = *reinterpret_cast<const float4*>(&s.staged[slot][row][column(f)]);
      const HalfSplit a = split_fp16(v.x * scale), b = split_fp16(v.y * scale),
                      c = split_fp16(v.z * scale), d = split_fp16(v.w * scale);
      *reinterpret_cast<uint2*>(&s.split[slot][0][row][column(f)]) =
          make_uint2(pack_halves(a.hi, b.hi), pack_halves(c.hi, d.hi));
      *reinterpret_cast<uint2*>(&s.split[slot][1][row][column(f)]) =
          make_uint2(pack_halves(a.lo, b.lo), pack_halves(c.lo, d.lo));
    }
  }

  __device__ __forceinline__ void split_all(SharedStorage<S>& s, int slot) {
    find_scale(s, slot);
#pragma unroll
    for (int part = 0; part < kBlocksPerChunk; ++part) split_part(s, slot, part);
  }
};

// d += a * b: m16n8k16, fp16 operands, fp32 accumulators. Rows of a are rows of W (output
// columns), columns of b rows of x; a's words are the fragment's a0..a3.
__device__ __forceinline__ void mma_16816(float4& d, const uint4& a, uint32_t b0, uint32_t b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d.x), "+f"(d.y), "+f"(d.z), "+f"(d.w)
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

// A warp's share of W: its two tiles, streamed k block by k block into a ring of registers. Tiles
// past n are zeros from prepack: their products land in columns that are never stored, and the
// loads need no predicate.
template <class S>
struct WeightStream {
  static constexpr int kTiles = S::kTilesPerWarp;
  const uint4* tile[kTiles];  // this lane's fragments of k block 0
  uint4 ring[kWeightSlots][kTiles][kParts];

  __device__ __forceinline__ WeightStream(const LayerParams& p, int first_tile, int lane) {
#pragma unroll
    for (int t = 0; t < kTiles; ++t)
      tile[t] = p.w + fragment_index(first_tile + t, p.k_blocks, 0, 0, lane);
  }

  __device__ __forceinline__ void load(int slot, int block) {
#pragma unroll
    for (int t = 0; t < kTiles; ++t)
#pragma unroll
      for (int part = 0; part < kParts; ++part)
        ring[slot][t][part] = __ldcs(tile[t] + block * kFragmentBlockStride + part * 32);
  }
};

// Asks L2 for k blocks [first, end) of the CTA tile's W, one contiguous span: one bulk prefetch
// (sm_90's copy engine) by the CTA's first thread, so that DRAM has whole chunks in flight
// without registers or L1 miss slots to hold them, and the ring's loads hit L2. Off by default:
// one chunk ahead it cost 17 % at m = 1 (W partly read twice) and saved 4-5 % only from m = 128.
__device__ __forceinline__ void prefetch_weights(const LayerParams& p, int n_tile, int first,
                                                 int end) {
#if __CUDA_ARCH__ >= 900
  if (threadIdx.x == 0 && first < end)
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(
                     p.w + fragment_index(int64_t(n_tile) * kCtaTiles, p.k_blocks, first, 0, 0)),
                 "r"(uint32_t(end - first) * uint32_t(kFragmentBlockStride * sizeof(uint4)))
                 : "memory");
#else
  (void)p, (void)n_tile, (void)first, (void)end;
#endif
}

// One k block (32 of K) of the warp's tiles against every 8-row tile of x: per 16 of K and pair
// of tiles, xh.wl and xl.wh, then xh.wh. Lane (g, t) takes x rows g, k = 8t .. 8t + 7 of the
// block (one 16-byte load each of hi and lo), matching W's fragment order: k16 step s uses the
// words 2s and 2s + 1, the k pairs the mma calls 2t and 2t + 8.
template <class S>
__device__ __forceinline__ void multiply_block(float4 (&acc)[S::kTilesPerWarp][S::kRowTiles],
                                               const uint4 (&w)[S::kTilesPerWarp][kParts],
                                               const SharedStorage<S>& s, int slot, int block,
                                               int lane) {
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int r = 0; r < S::kRowTiles; ++r) {
    const uint4 xh =
        *reinterpret_cast<const uint4*>(&s.split[slot][0][8 * r + g][block * kBlockK + 8 * t]);
    const uint4 xl =
        *reinterpret_cast<const uint4*>(&s.split[slot][1][8 * r + g][block * kBlockK + 8 * t]);
#pragma unroll
    for (int step = 0; step < 2; ++step) {
      const uint32_t h0 = step == 0 ? xh.x : xh.z, h1 = step == 0 ? xh.y : xh.w;
      const uint32_t l0 = step == 0 ? xl.x : xl.z, l1 = step == 0 ? xl.y : xl.w;
#pragma unroll
      for (int tile = 0; tile < S::kTilesPerWarp; ++tile) {
        const uint4& wh = w[tile][step];
        const uint4& wl = w[tile][2 + step];
        mma_16816(acc[tile][r], wh, l0, l1);
        mma_16816(acc[tile][r], wl, h0, h1);
        mma_16816(acc[tile][r], wh, h0, h1);
      }
    }
  }
}

// Adds the chunk's accumulators, times the exact unscale of their x rows, into the fp32 sums and
// restarts them from zero. Accumulator (tile, r) of lane (g, t) holds W rows g, g + 8 (x, y / z,
// w) against x rows 8r + 2t, 8r + 2t + 1 (x, z / y, w).
template <class S>
__device__ __forceinline__ void promote(float4 (&acc)[S::kTilesPerWarp][S::kRowTiles],
                                        SharedStorage<S>& s, int slot, int warp, int lane) {
  const int t = lane % 4;
#pragma unroll
  for (int r = 0; r < S::kRowTiles; ++r) {
    const float u0 = s.x_unscale[slot][8 * r + 2 * t], u1 = s.x_unscale[slot][8 * r + 2 * t + 1];
#pragma unroll
    for (int tile = 0; tile < S::kTilesPerWarp; ++tile) {
      float4& sum = s.sums[warp][tile * S::kRowTiles + r][lane];
      float4 v = sum;
      float4& a = acc[tile][r];
      v.x = fmaf(a.x, u0, v.x);
      v.y = fmaf(a.y, u1, v.y);
      v.z = fmaf(a.z, u0, v.z);
      v.w = fmaf(a.w, u1, v.w);
      sum = v;
      a = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
  }
}

// The tile's finished sums (accumulator layout) to y, through shared memory so that a warp
// stores 512 bytes of one row of y rather than 32-byte pieces of four rows at once (measured on
// the H200: 0-0.5 us at m = 1 to 16, 4 us at m = 64). W's unscale factor, the bias and Mish twice
// are applied on the way out. `sums` must be dead: every warp has read its own.
template <class S>
__device__ __forceinline__ void store_tile(const float4 (&v)[S::kSums], SharedStorage<S>& s,
                                           const LayerParams& p, int m0, int n0, int warp,
                                           int lane) {
  static_assert(sizeof(s.finished) == sizeof(s.sums), "the outputs take the sums' place");
  const int g = lane / 4, t = lane % 4;
  __syncthreads();
#pragma unroll
  for (int tile = 0; tile < S::kTilesPerWarp; ++tile)
#pragma unroll
    for (int r = 0; r < S::kRowTiles; ++r) {
      const float4& sum = v[tile * S::kRowTiles + r];
      const int c = (warp * S::kTilesPerWarp + tile) * kTileRows + g, row = 8 * r + 2 * t;
      s.finished[row][c] = sum.x;
      s.finished[row + 1][c] = sum.y;
      s.finished[row][c + 8] = sum.z;
      s.finished[row + 1][c + 8] = sum.w;
    }
  __syncthreads();
  constexpr int kGroupsPerRow = kSplitkTileN / 4;
#pragma unroll 1
  for (int i = threadIdx.x; i < S::kRows * kGroupsPerRow; i += S::kThreads) {
    const int row = i / kGroupsPerRow, c = 4 * (i % kGroupsPerRow);
    if (m0 + row >= p.m) continue;
    const float4 sum = *reinterpret_cast<const float4*>(&s.finished[row][c]);
    const float4 unscale = *reinterpret_cast<const float4*>(&s.column_unscale[c]);
    const float4 bias = *reinterpret_cast<const float4*>(&s.column_bias[c]);
    const float4 out = make_float4(
        mish(mish(sum.x * unscale.x + bias.x)), mish(mish(sum.y * unscale.y + bias.y)),
        mish(mish(sum.z * unscale.z + bias.z)), mish(mish(sum.w * unscale.w + bias.w)));
    const int n = n0 + c;
    float* y = p.y + int64_t(m0 + row) * p.n + n;
    if (p.y_vector && n + 4 <= p.n) {
      *reinterpret_cast<float4*>(y) = out;
    } else {
      if (n < p.n) y[0] = out.x;
      if (n + 1 < p.n) y[1] = out.y;
      if (n + 2 < p.n) y[2] = out.z;
      if (n + 3 < p.n) y[3] = out.w;
    }
  }
}

#endif  // MISH_SPLITK_DEVICE_CODE

// Two CTAs per SM where the registers allow it (up to 16 rows of x).
template <class S>
__global__ void __launch_bounds__(S::kThreads, S::kRowTiles <= 2 ? 2 : 1)
    splitk_layer_kernel(const LayerParams p) {
#if defined(MISH_SPLITK_DEVICE_CODE)
  constexpr int kRows = S::kRows, kRowTiles = S::kRowTiles, kSums = S::kSums;
  constexpr int kTilesPerWarp = S::kTilesPerWarp;
  extern __shared__ float4 shared_raw[];
  SharedStorage<S>& s = *reinterpret_cast<SharedStorage<S>*>(shared_raw);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  // The grid: m blocks fastest (they share W tiles), then K slices, then 256-column tiles.
  const int m_block = blockIdx.x % p.m_blocks;
  const int slice = blockIdx.x / p.m_blocks % p.slices;
  const int n_tile = blockIdx.x / (p.m_blocks * p.slices);
  const int m0 = m_block * kRows;
  const int chunk_begin = slice * p.chunks_per_slice;
  const int chunk_end = min(chunk_begin + p.chunks_per_slice, p.chunks);
  const int block_begin = chunk_begin * kBlocksPerChunk;
  const int block_end = min(chunk_end * kBlocksPerChunk, p.k_blocks);
  const int first_w_tile = n_tile * kCtaTiles + warp * kTilesPerWarp;

  // x's first two chunks and the epilogue's column operands are asked for before W's first k
  // blocks: behind the 16 MiB that all CTAs' first W loads put in flight together (at n = k =
  // 8192), the first split waited for them (measured on the H200: 0.6-0.8 us at m = 1 and 8).
  stage_columns(s, p, n_tile);
  stage_chunk(s, 0, p, m0, chunk_begin, chunk_end);
  stage_chunk(s, 1, p, m0, chunk_begin + 1, chunk_end);
  WeightStream<S> w(p, first_w_tile, lane);
  prefetch_weights(p, n_tile, block_begin,
                   min(block_begin + p.prefetch_chunks * kBlocksPerChunk, block_end));
#pragma unroll
  for (int slot = 0; slot < kWeightSlots; ++slot)
    if (block_begin + slot < block_end) w.load(slot, block_begin + slot);
#pragma unroll
  for (int i = 0; i < kSums; ++i) s.sums[warp][i][lane] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  ChunkSplit<S> splitter;
  copy_async_wait<1>();
  __syncthreads();
  splitter.split_all(s, 0);

  float4 acc[kTilesPerWarp][kRowTiles];
#pragma unroll
  for (int tile = 0; tile < kTilesPerWarp; ++tile)
#pragma unroll
    for (int r = 0; r < kRowTiles; ++r) acc[tile][r] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

  // Chunk i: multiplied from split slot i % 2 while chunk i + 1 is split into the other slot
  // (from staged slot (i + 1) % 2, landed) and chunk i + 2 is copied into staged slot i % 2. The
  // one barrier per chunk orders all three hand-overs.
  for (int chunk = chunk_begin, i = 0; chunk < chunk_end; ++chunk, ++i) {
    const int slot = i % 2;
    copy_async_wait<0>();
    __syncthreads();
    stage_chunk(s, slot, p, m0, chunk + 2, chunk_end);
    if (p.prefetch_chunks > 0) {
      const int ahead = (chunk + p.prefetch_chunks) * kBlocksPerChunk;
      prefetch_weights(p, n_tile, ahead, min(ahead + kBlocksPerChunk, block_end));
    }
    const bool split_next = chunk + 1 < chunk_end;
    if (split_next) splitter.find_scale(s, slot ^ 1);
#pragma unroll
    for (int j = 0; j < kBlocksPerChunk; ++j) {
      const int block = chunk * kBlocksPerChunk + j;
      if (block < block_end) {
        multiply_block(acc, w.ring[j % kWeightSlots], s, slot, j, lane);
        if (block + kWeightSlots < block_end) w.load(j % kWeightSlots, block + kWeightSlots);
      }
      if (split_next) splitter.split_part(s, slot ^ 1, j);
    }
    promote(acc, s, slot, warp, lane);
  }

  const int tile_id = m_block + p.m_blocks * n_tile;
  const int n0 = n_tile * kSplitkTileN;
  float4 own[kSums];
#pragma unroll
  for (int i = 0; i < kSums; ++i) own[i] = s.sums[warp][i][lane];
  if (p.slices == 1) {
    store_tile(own, s, p, m0, n0, warp, lane);
    return;
  }

  // Split-K: publish this slice's partial; the last CTA of the tile reduces all of them.
  constexpr int kTileFloat4 = S::kWarps * kSums * 32;
  const auto partial = [&](int q) {
    return p.workspace + (int64_t(q) * p.m_blocks * p.n_tiles + tile_id) * kTileFloat4 +
           warp * kSums * 32 + lane;
  };
#pragma unroll
  for (int i = 0; i < kSums; ++i) __stcg(partial(slice) + i * 32, own[i]);
  // One thread orders the CTA's stores (made before the barrier) ahead of its arrival, and, if
  // last, the other slices' stores ahead of the CTA's loads after the second barrier.
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    s.last = atomicAdd(&p.counters[tile_id], 1) == p.slices - 1;
    if (s.last) __threadfence();
  }
  __syncthreads();
  if (!s.last) return;

  // Fixed order: slice 0 first, whichever CTA arrived last. Loads of kBatch slices are issued
  // together so that their latencies overlap.
  constexpr int kBatch = kSums >= 16 ? 1 : 16 / kSums;
  float4 total[kSums];
#pragma unroll
  for (int i = 0; i < kSums; ++i) total[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int q0 = 0; q0 < p.slices; q0 += kBatch) {
    float4 part[kBatch][kSums];
#pragma unroll
    for (int b = 0; b < kBatch; ++b)
#pragma unroll
      for (int i = 0; i < kSums; ++i)
        part[b][i] = q0 + b == slice || q0 + b >= p.slices ? own[i]
                                                            : __ldcg(partial(q0 + b) + i * 32);
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      if (q0 + b >= p.slices) break;
#pragma unroll
      for (int i = 0; i < kSums; ++i) {
        total[i].x += part[b][i].x;
        total[i].y += part[b][i].y;
        total[i].z += part[b][i].z;
        total[i].w += part[b][i].w;
      }
    }
  }

  // The partials are dead once every lane has added its share: drop their L2 lines (128 bytes,
  // 8 lanes' float4s) without writeback.
  __syncwarp();
  if (lane % 8 == 0)
    for (int q = 0; q < p.slices; ++q)
#pragma unroll
      for (int i = 0; i < kSums; ++i)
        asm volatile("discard.global.L2 [%0], 128;\n" ::"l"(partial(q) + i * 32) : "memory");
  if (threadIdx.x == 0) p.counters[tile_id] = 0;
  store_tile(total, s, p, m0, n0, warp, lane);
#endif
}

int row_tiles_for(int64_t m) { return m <= 8 ? 1 : m <= 16 ? 2 : m <= 32 ? 4 : 8; }

// Calls f(Shape<row_tiles>{}).
template <class F>
auto with_shape(int row_tiles, F&& f) {
  switch (row_tiles) {
    case 1: return f(Shape<1>{});
    case 2: return f(Shape<2>{});
    case 4: return f(Shape<4>{});
    case 8: return f(Shape<8>{});
  }
  throw std::invalid_argument("splitk layer: row_tiles must be 1, 2, 4 or 8");
}

}  // namespace

bool splitk_kernel_available() {
  probe_splitk_arch<<<1, 1>>>();
  MISH_CUDA_CHECK_LAUNCH();
  int arch = 0;
  MISH_CUDA_CHECK(cudaMemcpyFromSymbol(&arch, g_splitk_arch, sizeof(arch)));
  return arch >= 800;
}

int64_t splitk_weight_bytes(int64_t n, int64_t k) {
  return weight_tiles(n) * weight_k_blocks(k) * kParts * 32 * int64_t(sizeof(uint4));
}

void launch_splitk_prepack(const float* w, int64_t n, int64_t k, uint4* fragments, float* unscale,
                           cudaStream_t stream) {
  constexpr int kRowsPerBlock = kBlockThreads / 32;
  weight_unscale_kernel<<<static_cast<unsigned>(ceil_div(n, kRowsPerBlock)), kBlockThreads, 0,
                          stream>>>(w, n, k, unscale);
  MISH_CUDA_CHECK_LAUNCH();
  const int64_t k_blocks = weight_k_blocks(k);
  const int64_t items = weight_tiles(n) * k_blocks * 32;
  weight_fragment_kernel<<<grid_stride_blocks(uint64_t(items), kBlockThreads), kBlockThreads, 0,
                           stream>>>(w, n, k, unscale, k_blocks, items, fragments);
  MISH_CUDA_CHECK_LAUNCH();
}

SplitkPlan plan_splitk_layer(int64_t m, int64_t n, int64_t k, const SplitkTuning& tuning) {
  if (m < 1 || n < 1 || k < 1) throw std::invalid_argument("splitk layer: empty problem");
  SplitkPlan plan;
  plan.row_tiles = row_tiles_for(m);
  plan.threads = with_shape(plan.row_tiles, [](auto shape) { return decltype(shape)::kThreads; });
  plan.shared_bytes = with_shape(plan.row_tiles, [](auto shape) {
    return sizeof(SharedStorage<decltype(shape)>);
  });
  const void* kernel = with_shape(plan.row_tiles, [](auto shape) {
    return reinterpret_cast<const void*>(splitk_layer_kernel<decltype(shape)>);
  });
  MISH_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(plan.shared_bytes)));
  int device = 0;
  MISH_CUDA_CHECK(cudaGetDevice(&device));
  MISH_CUDA_CHECK(cudaDeviceGetAttribute(&plan.sms, cudaDevAttrMultiProcessorCount, device));
  MISH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&plan.ctas_per_sm, kernel,
                                                                plan.threads, plan.shared_bytes));
  if (plan.ctas_per_sm < 1)
    throw std::runtime_error("splitk layer: the kernel does not fit on this device's SMs");
  plan.m_blocks = static_cast<int>(ceil_div(m, 8 * plan.row_tiles));
  plan.n_tiles = static_cast<int>(ceil_div(n, kSplitkTileN));
  plan.chunks = static_cast<int>(ceil_div(k, kChunkK));
  const int64_t tiles = int64_t(plan.m_blocks) * plan.n_tiles;
  const int64_t resident = int64_t(plan.sms) * plan.ctas_per_sm;
  const int64_t resident_slices = tiles >= resident ? 1 : resident / tiles;
  const int64_t wanted =
      std::min<int64_t>(tuning.slices > 0 ? tuning.slices : resident_slices, plan.chunks);
  plan.chunks_per_slice = static_cast<int>(ceil_div(plan.chunks, wanted));
  plan.slices = static_cast<int>(ceil_div(plan.chunks, plan.chunks_per_slice));
  plan.ctas = static_cast<int>(tiles * plan.slices);
  plan.prefetch_chunks = tuning.prefetch_chunks;
  if (plan.slices > 1) {
    plan.counters = static_cast<int>(tiles);
    plan.workspace_bytes = size_t(plan.slices) * size_t(tiles) * kSplitkTileN *
                           size_t(8 * plan.row_tiles) * sizeof(float);
  }
  return plan;
}

bool splitk_stages_x_in_vectors(const float* x, int64_t k) { return float4_rows(x, k); }

void launch_splitk_layer(const SplitkPlan& plan, const SplitkLayerOperands& o,
                         cudaStream_t stream) {
  const LayerParams p{o.x,
                      o.w_fragments,
                      o.w_unscale,
                      o.bias,
                      o.y,
                      o.workspace,
                      o.counters,
                      static_cast<int>(o.m),
                      static_cast<int>(o.n),
                      static_cast<int>(o.k),
                      static_cast<int>(weight_k_blocks(o.k)),
                      plan.m_blocks,
                      plan.n_tiles,
                      plan.slices,
                      plan.chunks,
                      plan.chunks_per_slice,
                      plan.prefetch_chunks,
                      splitk_stages_x_in_vectors(o.x, o.k) ? 1 : 0,
                      float4_rows(o.y, o.n) ? 1 : 0};
  with_shape(plan.row_tiles, [&](auto shape) {
    using S = decltype(shape);
    splitk_layer_kernel<S><<<static_cast<unsigned>(plan.ctas), S::kThreads, plan.shared_bytes,
                             stream>>>(p);
    return 0;
  });
  MISH_CUDA_CHECK_LAUNCH();
}

}  // namespace mish
