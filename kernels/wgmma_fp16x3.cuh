// The fused Hopper layer: y = mish(mish(x * W^T + b)) in one sm_90a kernel on fp16 tensor cores
// with fp16x3 split precision (see wgmma_fp16x3.cu for the design and the accuracy argument).
// Operands come prepared by launch_row_split_fp16 (row_split_fp16.cuh), each with a per-row 2^-e
// unscale factor: x as hi rows then lo rows (wgmma_x_split_layout), W in tile blocks
// (wgmma_w_split_layout).
#pragma once
#include <cuda.h>  // CUtensorMap (a plain struct; the driver library itself is not linked)
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "row_split_fp16.cuh"

namespace mish {

// Output tile of one CTA, and the K extent of one k block (one wgmma group per product set).
constexpr int kWgmmaTileM = 128;
constexpr int kWgmmaTileN = 128;
constexpr int kWgmmaBlockK = 64;
// The shared-memory ring: slots of 32 KiB, each one k block of hi and lo of one operand's 128 rows.
// A k block takes two, x's and W's, so seven hold three and a half and the producer runs one and a
// half blocks ahead. On the transposed path (m <= 64) the same bytes hold fewer, larger slots of
// one k block each, W's and x's together (wgmma_ring_slots).
constexpr int kWgmmaRingSlots = 7;
// Threads per CTA: a TMA producer warpgroup and two wgmma consumer warpgroups.
constexpr int kWgmmaThreads = 384;
// Partial sums leave the tensor-core accumulators for fp32 registers every this many of K, except
// in the first chunk of each tile, which spans kWgmmaFirstChunkK (plus the remainder of K beyond
// whole chunks): the previous tile's epilogue runs in its gaps, two column groups per k block.
// Longer chunks let the accumulation drift on unit-variance inputs (results/notes/2026-12-04-perf-notes.md).
constexpr int kWgmmaPromoteK = 256;
constexpr int kWgmmaFirstChunkK = 512;
// The fp16 correction accumulators are promoted every this many chunks (and at each tile's first
// and last chunk): their sums stay far inside fp16's range over 512 of K (kWgmmaRowTopExponent),
// and each promotion converts 64 fp16 values; longer intervals cost accuracy on unit-variance
// inputs (results/notes/2026-12-04-perf-notes.md).
constexpr int kWgmmaCorrectionPromoteChunks = 2;
// Rows of x and W are scaled so that their largest magnitude sits in [2^4, 2^5) before the split:
// low enough that a chunk's two correction products (each ~2^-11 of the main one) sum in fp16
// accumulators without overflow (|xh wl| < 2^5 * 2^-6 per term, < 2^9 over 1024 terms), while
// fp16's subnormal step (2^-24) keeps lo's rounding below 2^-29 of the row's largest magnitude.
constexpr int kWgmmaRowTopExponent = 4;

// The row stride (in fp16) of x's split rows: k rounded up to 8, the 16 bytes TMA needs.
int64_t wgmma_split_row_stride(int64_t k);
SplitRows wgmma_x_split_layout(__half* split, int64_t m, int64_t k);

// W's split in blocks of a tile's rows by a k block (kWgmmaTileN x kWgmmaBlockK), so that every
// TMA box of W is one 16 KiB span and a tile's k blocks follow each other: each CTA streams W
// from DRAM in long runs instead of 128-byte pieces of 128 rows 2k bytes apart. The layout's
// elements(n) fp16, zeroed before the first split (the edges past n and k are read as zeros).
SplitTileBlocks wgmma_w_split_layout(__half* split, int64_t k);
// Boxes of W's split (tiles x k blocks x 2 planes); the kernel numbers them with 32-bit ints.
int64_t wgmma_w_split_boxes(int64_t n, int64_t k);

struct WgmmaLayerOperands {
  const __half* x_split = nullptr;    // [2m, stride]: x hi rows, then x lo rows
  const float* x_unscale = nullptr;   // [m]
  const __half* w_split = nullptr;    // W hi and lo in tile blocks (wgmma_w_split_layout)
  const float* w_unscale = nullptr;   // [n]
  const float* bias = nullptr;        // [n]
  float* y = nullptr;                 // [m, n]
  int64_t m = 0, n = 0, k = 0;
  int group_m = 0;  // m tiles per group of the tile walk (see wgmma_fp16x3.cu); 0: all of them
  // Split-K (WgmmaPlan): each tile's K in `slices` stretches of slice_blocks k blocks, summed
  // through `workspace` by the last slice to finish, counted on `counters` (one int per tile,
  // zero before the first launch; each launch leaves them zero again).
  int slices = 1, slice_blocks = 0;
  float* workspace = nullptr;
  int* counters = nullptr;
  // WgmmaPlan::pairs: launched in clusters of two CTAs, the two slices of one tile, which add
  // their parts through each other's shared memory instead (no workspace, no counters).
  bool pairs = false;
};

// How the kernel covers a problem on a device of `sms` SMs: when the output tiles are too few to
// give every SM one, K is cut into slices (at least kWgmmaMinSliceK each) so that they do. At
// m <= 64 the kernel computes each tile transposed (see wgmma_transposed_n).
struct WgmmaPlan {
  int tiles = 0;
  int slices = 1, slice_blocks = 0;
  int transposed_n = 0;        // wgmma_transposed_n(m)
  int ctas = 0;                // persistent grid: at most one per SM
  // On the transposed path with two slices and one unit per CTA: clusters of two CTAs, the
  // slices of one tile, each adding the other's part of half of the tile's outputs from its
  // shared memory and finishing that half, so that no workspace round trip and only half the
  // epilogue follow the later CTA's last k block.
  bool pairs = false;
  size_t workspace_bytes = 0;  // partial sums, when slices > 1 without pairs
  int counters = 0;            // one per tile, likewise
};
constexpr int kWgmmaMinSliceK = 1024;

// `slices` > 0 fixes the split-K factor (capped at one slice per k block); 0 lets the plan pick.
WgmmaPlan plan_wgmma_layer(int64_t m, int64_t n, int64_t k, int sms, int slices);

// The tile walk's default group of m tiles (WgmmaLayerOperands::group_m) for K = k: as many as
// keep their split of x, hi and lo, within kWgmmaGroupXBytes (at least one), so that a group's x
// stays in L2 while W streams past: at k = 8192, 8 m tiles of 4 MiB each. One group over all of a
// larger x reads it from DRAM again for every few n tiles (results/notes/2026-12-04-perf-notes.md).
constexpr int64_t kWgmmaGroupXBytes = int64_t(32) << 20;  // about half of an H200's 60 MiB L2
int wgmma_default_group_m(int64_t k);

// The transposed path for m rows of x: at m <= 64 W's 128 rows of a tile take wgmma's M side and
// x's rows its N side, padded to the returned 8, 16, 32 or 64; 0 for larger m, where the kernel
// takes 128 x 128 tiles with x on the M side.
int wgmma_transposed_n(int64_t m);

// Slots of the shared-memory ring for a plan's transposed_n (kWgmmaRingSlots at 0).
int wgmma_ring_slots(int transposed_n);

// TMA descriptors for the two split operands, built once on the host (setup) and passed to every
// launch by value.
struct WgmmaTensorMaps {
  CUtensorMap x;  // boxes of 128 rows, or of transposed_n rows on the transposed path
  CUtensorMap w;
};

// True when this binary holds the sm_90a kernel and the current device can run it.
bool wgmma_kernel_available();

// Encodes the tensor maps (through the driver entry point, so libcuda is not linked) and raises
// the kernel's shared-memory limit. Any m, n, k >= 1.
WgmmaTensorMaps prepare_wgmma_layer(const WgmmaLayerOperands& operands);

// The main kernel: a persistent grid of `ctas` blocks (one per SM) over all output tiles.
void launch_wgmma_fp16x3_layer(const WgmmaLayerOperands& operands, const WgmmaTensorMaps& maps,
                               int ctas, cudaStream_t stream);

// Bytes of dynamic shared memory the main kernel takes per block.
size_t wgmma_layer_shared_bytes();

}  // namespace mish
