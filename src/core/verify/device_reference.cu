// The layer in float64 on the GPU, and the check of an output against it there (see
// device_reference.h). The reference is a cuBLAS DGEMM on operands widened to double (W and b once,
// from the host copies; x at every compute()), then one elementwise kernel for bias and both Mish
// in double. The check is the host verify() taken apart into reductions the GPU does well: one
// grid-stride pass sums the counts and max-reduces the maxima, as bit patterns under 64-bit
// atomicMax; a second pass takes the lowest index whose score equals the maximum, which is the
// host's tie-break; a one-thread kernel reads that element. Each score is computed with the host's
// roundings in the host's order, so against the same reference the two give the same figures to
// the bit.
// Indices are 64-bit throughout: m*n may pass 2^31.
#include "core/verify/device_reference.h"

#include <math_constants.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/cuda/cublas_check.h"
#include "base/cuda/cuda_check.cuh"
#include "grid_stride.cuh"

namespace mish {

// The check's running totals. Zeroed bytes are the empty state: counts 0, keys 0 ("no value yet",
// see ordered_key) and index complement 0 ("no element yet").
struct DeviceCheckTotals {
  unsigned long long mismatches;
  unsigned long long nonfinite;
  unsigned long long max_abs_key;
  unsigned long long max_rel_key;
  unsigned long long worst_score_key;
  unsigned long long worst_index_complement;  // ~index: atomicMax on it takes the lowest index
  double worst_got;
  double worst_expected;
};

namespace {

constexpr unsigned long long kSignBit = 0x8000000000000000ull;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarps = kBlockThreads / 32;

// A double's bits mapped so that unsigned order is numeric order, for every double but NaN. The
// smallest key, -inf's, is 0x000fffffffffffff, so 0 is free to mean "no value yet". -0 is taken as
// +0, which the host's comparisons do not tell apart either.
__device__ __forceinline__ unsigned long long ordered_key(double value) {
  if (value == 0.0) value = 0.0;
  const unsigned long long bits = static_cast<unsigned long long>(__double_as_longlong(value));
  return (bits & kSignBit) ? ~bits : bits | kSignBit;
}

double from_ordered_key(unsigned long long key) {
  const unsigned long long bits = (key & kSignBit) ? key & ~kSignBit : ~key;
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

__device__ __forceinline__ unsigned long long max_u64(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}

// One element as verify.cpp scores it. The tolerance's product and sum are rounded separately
// (__dmul_rn, __dadd_rn keep nvcc from fusing them into an FMA, which the host build, for
// baseline x86-64, does not have), so the score has the host's bits.
struct Scored {
  bool finite;
  double abs_error;  // |y - ref|, for finite y
  double score;      // abs_error / (atol + rtol |ref|); infinity for non-finite y
};

__device__ __forceinline__ Scored score_element(float y, double expected, double atol,
                                                double rtol) {
  const double got = y;
  if (!isfinite(got)) return {false, 0.0, CUDART_INF};
  const double abs_error = fabs(got - expected);
  const double allowed = __dadd_rn(atol, __dmul_rn(rtol, fabs(expected)));
  return {true, abs_error, abs_error == 0.0 ? 0.0 : __ddiv_rn(abs_error, allowed)};
}

// The host starts its worst score at -1 and takes only larger ones: NaN scores never qualify.
__device__ __forceinline__ bool worst_candidate(double score) { return score > -1.0; }

// Trivial, so that it can live in shared memory; Partial{} is the empty state.
struct Partial {
  unsigned long long mismatches, nonfinite, max_abs_key, max_rel_key, worst_score_key;
};

__device__ __forceinline__ void warp_reduce(Partial& p) {
  for (int offset = 16; offset > 0; offset /= 2) {
    p.mismatches += __shfl_down_sync(kFullMask, p.mismatches, offset);
    p.nonfinite += __shfl_down_sync(kFullMask, p.nonfinite, offset);
    p.max_abs_key = max_u64(p.max_abs_key, __shfl_down_sync(kFullMask, p.max_abs_key, offset));
    p.max_rel_key = max_u64(p.max_rel_key, __shfl_down_sync(kFullMask, p.max_rel_key, offset));
    p.worst_score_key =
        max_u64(p.worst_score_key, __shfl_down_sync(kFullMask, p.worst_score_key, offset));
  }
}

__global__ void widen_kernel(const float* in, double* out, uint64_t count) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    out[i] = in[i];
}

// PyTorch's Mish in double, as reference.cpp's mish_double.
__device__ __forceinline__ double mish_in_double(double v) { return v * tanh(log1p(exp(v))); }

__global__ void bias_mish_kernel(double* ref, const double* b, uint64_t count, uint64_t n) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    ref[i] = mish_in_double(mish_in_double(ref[i] + b[i % n]));
}

// Pass 1: counts and maxima (as ordered keys), one set of atomics per block.
__global__ void check_kernel(const float* y, const double* ref, uint64_t count, double atol,
                             double rtol, DeviceCheckTotals* totals) {
  Partial p{};
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const double expected = ref[i];
    const Scored s = score_element(y[i], expected, atol, rtol);
    if (!s.finite) {
      ++p.nonfinite;
    } else {
      // NaN errors (a non-finite reference) leave the maxima alone, as std::max does on the host.
      if (!isnan(s.abs_error)) p.max_abs_key = max_u64(p.max_abs_key, ordered_key(s.abs_error));
      if (expected != 0.0) {
        const double rel = s.abs_error / fabs(expected);
        if (!isnan(rel)) p.max_rel_key = max_u64(p.max_rel_key, ordered_key(rel));
      }
    }
    if (!(s.score <= 1.0)) ++p.mismatches;
    if (worst_candidate(s.score))
      p.worst_score_key = max_u64(p.worst_score_key, ordered_key(s.score));
  }

  __shared__ Partial warp_partials[kWarps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  warp_reduce(p);
  if (lane == 0) warp_partials[warp] = p;
  __syncthreads();
  if (warp != 0) return;
  p = lane < kWarps ? warp_partials[lane] : Partial{};
  warp_reduce(p);
  if (lane != 0) return;
  if (p.mismatches != 0) atomicAdd(&totals->mismatches, p.mismatches);
  if (p.nonfinite != 0) atomicAdd(&totals->nonfinite, p.nonfinite);
  if (p.max_abs_key != 0) atomicMax(&totals->max_abs_key, p.max_abs_key);
  if (p.max_rel_key != 0) atomicMax(&totals->max_rel_key, p.max_rel_key);
  if (p.worst_score_key != 0) atomicMax(&totals->worst_score_key, p.worst_score_key);
}

// Pass 2: the lowest index whose score is pass 1's maximum. A thread's indices rise along its
// loop, so its first match is its lowest and it can stop there.
__global__ void worst_index_kernel(const float* y, const double* ref, uint64_t count, double atol,
                                   double rtol, DeviceCheckTotals* totals) {
  const unsigned long long best = totals->worst_score_key;
  if (best == 0) return;  // no candidate at all (every score NaN): the same for the whole grid
  unsigned long long complement = 0;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const Scored s = score_element(y[i], ref[i], atol, rtol);
    if (worst_candidate(s.score) && ordered_key(s.score) == best) {
      complement = ~static_cast<unsigned long long>(i);
      break;
    }
  }
  for (int offset = 16; offset > 0; offset /= 2)
    complement = max_u64(complement, __shfl_down_sync(kFullMask, complement, offset));
  if (threadIdx.x % 32 == 0 && complement != 0)
    atomicMax(&totals->worst_index_complement, complement);
}

__global__ void worst_values_kernel(const float* y, const double* ref,
                                    DeviceCheckTotals* totals) {
  const unsigned long long complement = totals->worst_index_complement;
  if (complement == 0) return;
  const uint64_t i = ~complement;
  totals->worst_got = y[i];
  totals->worst_expected = ref[i];
}

// One block: sum_k |x[row,k] w[col,k]| + |b[col]| into *out.
__global__ void input_magnitude_kernel(const float* x, const double* w, const double* b,
                                       uint64_t k, uint64_t row, uint64_t col, double* out) {
  const float* x_row = x + row * k;
  const double* w_row = w + col * k;
  double sum = 0.0;
  for (uint64_t i = threadIdx.x; i < k; i += blockDim.x) sum += fabs(double(x_row[i]) * w_row[i]);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(kFullMask, sum, offset);
  __shared__ double warp_sums[kWarps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (threadIdx.x != 0) return;
  double total = fabs(b[col]);
  for (int i = 0; i < kWarps; ++i) total += warp_sums[i];
  *out = total;
}

// The problem, once its inputs and sizes are known to fit: W and b as large as it says, every
// size within cuBLAS's int dimensions.
const Problem& checked(const Problem& problem, const HostInputs& inputs) {
  constexpr int64_t kIntMax = std::numeric_limits<int>::max();
  for (const int64_t size : {problem.m, problem.n, problem.k})
    if (size < 1 || size > kIntMax)
      throw std::invalid_argument("DeviceReference: problem " + problem.shape() +
                                  " has a size outside 1.." + std::to_string(kIntMax));
  if (inputs.w.size() != problem.w_count() || inputs.b.size() != uint64_t(problem.n))
    throw std::invalid_argument("DeviceReference: host W and b do not match problem " +
                                problem.shape());
  return problem;
}

// Host floats to device doubles, widened on the host a chunk at a time (the run's W can be
// gigabytes; a double copy of all of it would double that on the host).
void upload_widened(const std::vector<float>& values, double* device, cudaStream_t stream) {
  constexpr size_t kChunk = size_t(1) << 20;
  std::vector<double> chunk(std::min(kChunk, values.size()));
  for (size_t first = 0; first < values.size(); first += kChunk) {
    const size_t count = std::min(kChunk, values.size() - first);
    std::copy(values.begin() + first, values.begin() + first + count, chunk.begin());
    MISH_CUDA_CHECK(cudaMemcpyAsync(device + first, chunk.data(), count * sizeof(double),
                                    cudaMemcpyHostToDevice, stream));
    MISH_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the chunk is refilled
  }
}

void destroy_handle(cublasHandle_t handle) {
  const cublasStatus_t status = cublasDestroy(handle);
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasDestroy failed: %s\n", cublasGetStatusName(status));
    std::terminate();
  }
}

}  // namespace

DeviceReference::DeviceReference(const Problem& problem, const HostInputs& inputs,
                                 cudaStream_t stream)
    : problem_(checked(problem, inputs)),
      stream_(stream),
      w_(problem.w_count()),
      b_(uint64_t(problem.n)),
      x_(problem.x_count()),
      ref_(problem.y_count()),
      totals_(1),
      magnitude_(1) {
  upload_widened(inputs.w, w_.get(), stream_);
  upload_widened(inputs.b, b_.get(), stream_);
  MISH_CUBLAS_CHECK(cublasCreate(&handle_));
  try {
    MISH_CUBLAS_CHECK(cublasSetStream(handle_, stream_));
    // Spelled out: cuBLAS's FP64 emulation (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH) stays off.
    MISH_CUBLAS_CHECK(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
  } catch (...) {
    destroy_handle(handle_);
    throw;
  }
}

DeviceReference::~DeviceReference() { destroy_handle(handle_); }

uint64_t DeviceReference::bytes_needed(const Problem& problem) {
  const uint64_t doubles = problem.w_count() + uint64_t(problem.n) + problem.x_count() +
                           problem.y_count() + 1;  // + 1: input_magnitude's result
  return doubles * sizeof(double) + sizeof(DeviceCheckTotals);
}

void DeviceReference::compute(const float* x) {
  const uint64_t x_count = problem_.x_count(), y_count = problem_.y_count();
  widen_kernel<<<grid_stride_blocks(x_count, kBlockThreads), kBlockThreads, 0, stream_>>>(
      x, x_.get(), x_count);
  MISH_CUDA_CHECK_LAUNCH();
  // Row-major y = x W^T is column-major y^T = W x^T: op(W) = T with ld k, x^T with ld k.
  const int m = int(problem_.m), n = int(problem_.n), k = int(problem_.k);
  const double one = 1.0, zero = 0.0;
  MISH_CUBLAS_CHECK(cublasDgemm(handle_, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, w_.get(), k,
                                x_.get(), k, &zero, ref_.get(), n));
  bias_mish_kernel<<<grid_stride_blocks(y_count, kBlockThreads), kBlockThreads, 0, stream_>>>(
      ref_.get(), b_.get(), y_count, uint64_t(problem_.n));
  MISH_CUDA_CHECK_LAUNCH();
}

Verification DeviceReference::check(const float* y, const Tolerance& tolerance) {
  const uint64_t count = problem_.y_count();
  const unsigned blocks = grid_stride_blocks(count, kBlockThreads);
  DeviceCheckTotals* totals = totals_.get();
  MISH_CUDA_CHECK(cudaMemsetAsync(totals, 0, sizeof(DeviceCheckTotals), stream_));
  check_kernel<<<blocks, kBlockThreads, 0, stream_>>>(y, ref_.get(), count, tolerance.atol,
                                                      tolerance.rtol, totals);
  MISH_CUDA_CHECK_LAUNCH();
  worst_index_kernel<<<blocks, kBlockThreads, 0, stream_>>>(y, ref_.get(), count, tolerance.atol,
                                                            tolerance.rtol, totals);
  MISH_CUDA_CHECK_LAUNCH();
  worst_values_kernel<<<1, 1, 0, stream_>>>(y, ref_.get(), totals);
  MISH_CUDA_CHECK_LAUNCH();
  DeviceCheckTotals host;
  MISH_CUDA_CHECK(
      cudaMemcpyAsync(&host, totals, sizeof(host), cudaMemcpyDeviceToHost, stream_));
  MISH_CUDA_CHECK(cudaStreamSynchronize(stream_));

  Verification result;
  result.checked = count;
  result.mismatches = host.mismatches;
  result.nonfinite = host.nonfinite;
  // Key 0: no finite element, where the host's maxima keep their starting 0.
  result.max_abs = host.max_abs_key != 0 ? from_ordered_key(host.max_abs_key) : 0.0;
  result.max_rel = host.max_rel_key != 0 ? from_ordered_key(host.max_rel_key) : 0.0;
  if (host.worst_index_complement != 0) {
    const int64_t index = int64_t(~host.worst_index_complement);
    result.worst = {index / problem_.n, index % problem_.n, host.worst_got, host.worst_expected};
  }
  return result;
}

double DeviceReference::input_magnitude(const float* x, int64_t row, int64_t col) {
  if (row < 0 || row >= problem_.m || col < 0 || col >= problem_.n)
    throw std::out_of_range("DeviceReference::input_magnitude: element (" + std::to_string(row) +
                            ", " + std::to_string(col) + ") is outside " + problem_.shape());
  input_magnitude_kernel<<<1, kBlockThreads, 0, stream_>>>(
      x, w_.get(), b_.get(), uint64_t(problem_.k), uint64_t(row), uint64_t(col),
      magnitude_.get());
  MISH_CUDA_CHECK_LAUNCH();
  double magnitude = 0.0;
  MISH_CUDA_CHECK(cudaMemcpyAsync(&magnitude, magnitude_.get(), sizeof(magnitude),
                                  cudaMemcpyDeviceToHost, stream_));
  MISH_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return magnitude;
}

std::vector<double> DeviceReference::download() {
  std::vector<double> host(ref_.size());
  MISH_CUDA_CHECK(cudaMemcpyAsync(host.data(), ref_.get(), ref_.bytes(), cudaMemcpyDeviceToHost,
                                  stream_));
  MISH_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return host;
}

}  // namespace mish
