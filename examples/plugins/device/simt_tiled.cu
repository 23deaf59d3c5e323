// simt_tiled: a mishbench plugin with a register-tiled SIMT FP32 GEMM that applies bias + Mish +
// Mish at the store, in one kernel.
//
// y[i][j] = mish(mish(sum_k x[i][k] W[j][k] + b[j])), x [m, k] and W [n, k] row-major, so both
// operands run along k. Each 256-thread block computes a 128 x 128 tile of y. Per step of 8 along
// k it stages an x tile (128 rows x 8) and a W tile (128 rows x 8) in shared memory, transposed
// to k-major so that a thread reads its operands as float4s, and each thread accumulates an 8 x 8
// micro-tile in registers: 64 FMAs per 16 floats read from shared memory. The thread's eight rows
// are two groups of four, 64 apart (likewise its columns), so that the float4 reads of a warp
// hit distinct banks or broadcast. The next step's global loads are issued before this step's
// FMAs, into registers, to hide their latency. Accumulation is plain fp32 FMA (no tensor cores),
// so the result is FP32-accurate.
//
// Odd shapes: loads outside x or W read as zero and stores outside y are skipped; loads and
// stores are float4 only where k (or n) is a multiple of 4 and the pointers are 16-byte aligned.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <new>

#include <mishbench/plugin.h>

namespace {

constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 8;
constexpr int kThreadM = 8, kThreadN = 8;
constexpr int kThreadsN = kBlockN / kThreadN;             // 16 threads across a tile's columns
constexpr int kThreads = (kBlockM / kThreadM) * kThreadsN;  // 256
constexpr int kHalfM = kBlockM / 2, kHalfN = kBlockN / 2;   // offset of a thread's second group
// Shared tiles are padded by 4 floats a row: the transposed stores of a warp then fall into
// distinct banks, and rows stay 16-byte aligned for the float4 reads.
constexpr int kPad = 4;
// Each thread loads 4 consecutive k of one row of x and of W per step.
constexpr int kLoadsPerRow = kBlockK / 4;
static_assert(kBlockM * kBlockK == 4 * kThreads && kBlockN * kBlockK == 4 * kThreads,
              "each thread loads exactly one group of 4 floats of each tile");
constexpr int64_t kMaxGridY = 65535;

// PyTorch's definition, x * tanh(softplus(x)), with the accurate libdevice functions: for large
// x, expf overflows to inf and the product is x; for very negative x it is 0.
__device__ float mish(float x) { return x * tanhf(log1pf(expf(x))); }

// Four consecutive elements [k0, k0 + 4) of row `row` of a [rows, k] matrix; zero outside it.
template <bool kVector>
__device__ void load_group(const float* __restrict__ matrix, int64_t row, int64_t rows, int64_t k,
                           int64_t k0, float (&out)[4]) {
  if (kVector && row < rows && k0 + 3 < k) {
    const float4 v = *reinterpret_cast<const float4*>(matrix + row * k + k0);
    out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = v.w;
    return;
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
    out[i] = (row < rows && k0 + i < k) ? matrix[row * k + k0 + i] : 0.0f;
}

template <bool kVectorLoad, bool kVectorStore>
__global__ void __launch_bounds__(kThreads)
    simt_tiled_linear_mish(const float* __restrict__ x, const float* __restrict__ w,
                           const float* __restrict__ bias, float* __restrict__ y, int64_t m,
                           int64_t n, int64_t k) {
  __shared__ __align__(16) float x_tile[kBlockK][kBlockM + kPad];
  __shared__ __align__(16) float w_tile[kBlockK][kBlockN + kPad];

  const int thread = threadIdx.x;
  const int64_t block_row = int64_t(blockIdx.y) * kBlockM;
  const int64_t block_col = int64_t(blockIdx.x) * kBlockN;

  // The tile element group this thread loads: row `load_row` of the tile, k offset `load_k`.
  const int load_row = thread / kLoadsPerRow;
  const int load_k = (thread % kLoadsPerRow) * 4;
  float x_next[4], w_next[4];
  const auto load = [&](int64_t k0) {
    load_group<kVectorLoad>(x, block_row + load_row, m, k, k0 + load_k, x_next);
    load_group<kVectorLoad>(w, block_col + load_row, n, k, k0 + load_k, w_next);
  };
  const auto store = [&] {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      x_tile[load_k + i][load_row] = x_next[i];
      w_tile[load_k + i][load_row] = w_next[i];
    }
  };

  // The micro-tile: rows tm + {0..3} and tm + kHalfM + {0..3}, columns likewise.
  const int tm = (thread / kThreadsN) * 4;
  const int tn = (thread % kThreadsN) * 4;
  float acc[kThreadM][kThreadN] = {};

  load(0);
  store();
  __syncthreads();
  for (int64_t k0 = 0; k0 < k; k0 += kBlockK) {
    const bool more = k0 + kBlockK < k;
    if (more) load(k0 + kBlockK);  // in flight during the FMAs below
#pragma unroll
    for (int kk = 0; kk < kBlockK; ++kk) {
      const float4 a_lo = *reinterpret_cast<const float4*>(&x_tile[kk][tm]);
      const float4 a_hi = *reinterpret_cast<const float4*>(&x_tile[kk][tm + kHalfM]);
      const float4 b_lo = *reinterpret_cast<const float4*>(&w_tile[kk][tn]);
      const float4 b_hi = *reinterpret_cast<const float4*>(&w_tile[kk][tn + kHalfN]);
      const float a[kThreadM] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
      const float b[kThreadN] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
      for (int i = 0; i < kThreadM; ++i)
#pragma unroll
        for (int j = 0; j < kThreadN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();  // everyone is done reading this step's tiles
    if (more) {
      store();
      __syncthreads();
    }
  }

  // Epilogue: bias + Mish + Mish, stored in two groups of 4 columns per row.
  float b[kThreadN];
#pragma unroll
  for (int j = 0; j < kThreadN; ++j) {
    const int64_t col = block_col + tn + (j < 4 ? j : kHalfN + j - 4);
    b[j] = col < n ? bias[col] : 0.0f;
  }
#pragma unroll
  for (int i = 0; i < kThreadM; ++i) {
    const int64_t row = block_row + tm + (i < 4 ? i : kHalfM + i - 4);
    if (row >= m) continue;
#pragma unroll
    for (int group = 0; group < 2; ++group) {
      const int64_t col = block_col + tn + group * kHalfN;
      float v[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) v[j] = mish(mish(acc[i][group * 4 + j] + b[group * 4 + j]));
      float* out = y + row * n + col;
      if (kVectorStore && col + 3 < n) {
        *reinterpret_cast<float4*>(out) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < n) out[j] = v[j];
      }
    }
  }
}

bool aligned16(const void* pointer) { return reinterpret_cast<uintptr_t>(pointer) % 16 == 0; }

struct Instance {
  mishbench_shape shape;
  bool vector_load = false, vector_store = false;  // the path of the last run
  char description[512];
};

// Whether `text` is "{}", give or take white space: this backend takes no options.
bool is_empty_object(const char* text) {
  const char* expected = "{}";
  for (; *text != '\0'; ++text) {
    if (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r') continue;
    if (*text != *expected) return false;
    ++expected;
  }
  return *expected == '\0';
}

dim3 grid_of(const mishbench_shape& shape) {
  return dim3(static_cast<unsigned>((shape.n + kBlockN - 1) / kBlockN),
              static_cast<unsigned>((shape.m + kBlockM - 1) / kBlockM));
}

int supports(const mishbench_shape* shape, const mishbench_device* device, char* reason,
             size_t reason_size) {
  if (device == nullptr) {
    snprintf(reason, reason_size, "simt-tiled runs on a CUDA GPU and none is present");
    return 0;
  }
  if ((shape->m + kBlockM - 1) / kBlockM > kMaxGridY) {
    snprintf(reason, reason_size, "simt-tiled covers m with grid.y: m <= %lld",
             static_cast<long long>(kMaxGridY * kBlockM));
    return 0;
  }
  return 1;
}

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors* tensors,
          const char* options_json, void* stream, char* message, size_t message_size) {
  (void)tensors, (void)stream;
  if (!is_empty_object(options_json)) {
    snprintf(message, message_size, "simt-tiled takes no options (got %s)", options_json);
    return MISHBENCH_ERROR;
  }
  Instance* self = new (std::nothrow) Instance{};
  if (self == nullptr) {
    snprintf(message, message_size, "out of host memory");
    return MISHBENCH_ERROR;
  }
  self->shape = *shape;
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message,
        size_t message_size) {
  Instance* self = static_cast<Instance*>(instance);
  const mishbench_shape& s = self->shape;
  self->vector_load = s.k % 4 == 0 && aligned16(t->x) && aligned16(t->w);
  self->vector_store = s.n % 4 == 0 && aligned16(t->y);
  const auto kernel = self->vector_load
                          ? (self->vector_store ? simt_tiled_linear_mish<true, true>
                                                : simt_tiled_linear_mish<true, false>)
                          : (self->vector_store ? simt_tiled_linear_mish<false, true>
                                                : simt_tiled_linear_mish<false, false>);
  kernel<<<grid_of(s), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(t->x, t->w, t->b, t->y,
                                                                          s.m, s.n, s.k);
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    snprintf(message, message_size, "kernel launch failed: %s (%s)%s", cudaGetErrorString(status),
             cudaGetErrorName(status),
             status == cudaErrorNoKernelImageForDevice
                 ? ": build the plugin for this GPU (-DCMAKE_CUDA_ARCHITECTURES)"
                 : "");
    return MISHBENCH_ERROR;
  }
  return MISHBENCH_OK;
}

const char* describe(void* instance) {
  Instance* self = static_cast<Instance*>(instance);
  const dim3 grid = grid_of(self->shape);
  snprintf(self->description, sizeof self->description,
           "{\"kernel\": \"register-tiled SIMT fp32 GEMM, bias + Mish + Mish at the store\", "
           "\"block_tile\": {\"m\": %d, \"n\": %d, \"k\": %d}, "
           "\"thread_tile\": {\"m\": %d, \"n\": %d}, \"threads_per_block\": %d, "
           "\"grid\": [%u, %u], \"vector_loads\": %s, \"vector_stores\": %s}",
           kBlockM, kBlockN, kBlockK, kThreadM, kThreadN, kThreads, grid.x, grid.y,
           self->vector_load ? "true" : "false", self->vector_store ? "true" : "false");
  return self->description;
}

void teardown(void* instance) { delete static_cast<Instance*>(instance); }

const mishbench_backend kBackends[] = {{
    "simt-tiled",
    "example plugin: register-tiled SIMT FP32 GEMM (128x128 blocks, 8x8 per thread) with "
    "bias+Mish+Mish fused at the store",
    "fp32",
    MISHBENCH_DEVICE,
    MISHBENCH_FP32,
    supports,
    setup,
    nullptr,  // prepack: W is used as it is
    run,
    nullptr,  // write_output: run() writes y
    0,        // one fused kernel: no stages
    nullptr,
    nullptr,
    describe,
    teardown,
}};

const mishbench_plugin kPlugin = {MISHBENCH_PLUGIN_ABI_VERSION, 1, kBackends};

}  // namespace

MISHBENCH_PLUGIN_EXPORT const mishbench_plugin* mishbench_plugin_entry(void) { return &kPlugin; }
