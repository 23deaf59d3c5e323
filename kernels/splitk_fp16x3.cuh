// The small-batch layer: y = mish(mish(x * W^T + b)) when x has few rows and the layer is bound by
// reading W. Split-K CTAs stream W once, prepared as scaled fp16 hi/lo in the order the tensor
// cores take it, multiply on mma.sync fp16x3 with FP32 promotion, and reduce their partial sums
// in a fixed order (see splitk_fp16x3.cu for the design and the accuracy argument).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace mish {

// Output columns (rows of W) per CTA, and the K extent of one staged chunk of x, which is also
// the interval at which the tensor-core sums are promoted to fp32.
constexpr int kSplitkTileN = 256;
constexpr int kSplitkChunkK = 128;

// True when this binary holds code of compute capability 8.0 or newer for the current device
// (the kernel's mma.sync and cp.async); a build for older targets holds only empty kernels.
bool splitk_kernel_available();

// Bytes of W [n, k] once prepared: n rounded up to kSplitkTileN, k to 32, hi and lo halves.
int64_t splitk_weight_bytes(int64_t n, int64_t k);

// Prepares W for the layer: unscale[r] = 2^-e of row r and its scaled hi/lo fp16 halves in the
// kernel's fragment order (zeros past n and k). `fragments` holds splitk_weight_bytes(n, k).
void launch_splitk_prepack(const float* w, int64_t n, int64_t k, uint4* fragments, float* unscale,
                           cudaStream_t stream);

// Choices a user may override (backend options); the defaults are the measured best on an H200.
struct SplitkTuning {
  int slices = 0;           // split-K factor; 0: as many as keep every CTA resident in one wave
  int prefetch_chunks = 0;  // chunks of W each warp requests into L2 (bulk prefetch, sm_90) ahead
                            // of the one it multiplies; 0: none
};

// How one problem is cut: CTAs of kSplitkTileN columns x (8 * row_tiles) rows of y, each summing
// one of `slices` stretches of K (chunks_per_slice chunks of kSplitkChunkK).
struct SplitkPlan {
  int row_tiles = 0;  // 8-row tiles of x per CTA: 1, 2, 4 or 8, the fewest that cover m (<= 64)
  int m_blocks = 0, n_tiles = 0;
  int chunks = 0, chunks_per_slice = 0, slices = 0;  // slices: the split-K factor
  int threads = 0;
  int ctas = 0, ctas_per_sm = 0, sms = 0;
  int prefetch_chunks = 0;
  size_t shared_bytes = 0;
  size_t workspace_bytes = 0;  // partial sums, when slices > 1
  int counters = 0;            // one arrival counter per output tile, when slices > 1
};

// Picks the instantiation and, unless `tuning` fixes it, the split-K factor for the current device:
// as many slices as keep every CTA resident in one wave (at most one per chunk). Raises the
// kernel's shared-memory limit. Any m, n, k >= 1.
SplitkPlan plan_splitk_layer(int64_t m, int64_t n, int64_t k, const SplitkTuning& tuning);

struct SplitkLayerOperands {
  const float* x = nullptr;          // [m, k]
  const uint4* w_fragments = nullptr;  // from launch_splitk_prepack
  const float* w_unscale = nullptr;  // [n]
  const float* bias = nullptr;       // [n]
  float* y = nullptr;                // [m, n]
  float4* workspace = nullptr;       // plan.workspace_bytes
  int* counters = nullptr;           // plan.counters ints, zero before the first launch; each
                                     // launch leaves them zero again
  int64_t m = 0, n = 0, k = 0;
};

// Whether the kernel stages x with 16-byte copies (k a multiple of 4, x 16-byte aligned) rather
// than 4-byte ones.
bool splitk_stages_x_in_vectors(const float* x, int64_t k);

void launch_splitk_layer(const SplitkPlan& plan, const SplitkLayerOperands& operands,
                         cudaStream_t stream);

}  // namespace mish
