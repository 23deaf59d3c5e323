// A float64 reference of the layer computed on the GPU, and the element-by-element check of an
// output against it there. Every timed sample has a fresh x of its own, and the CPU reference
// (core/reference/reference.h) is far too slow to follow each one; this one is a cuBLAS DGEMM plus a
// double epilogue, fast enough to check every sample. W and b come from the host copies the run
// keeps, never from device buffers a backend can write, so a backend that overwrote its inputs
// could not move the reference with them. The check gives the same figures, by the same rules,
// as verify() in core/verify/verify.h, so the two can stand side by side in a report.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "base/cuda/device_buffer.h"
#include "core/problem/generator.h"
#include "core/problem/problem.h"
#include "core/verify/verify.h"

namespace mish {

struct DeviceCheckTotals;  // the check's counters and keys on the device (device_reference.cu)

// A float64 reference of the layer on the GPU for outputs whose x is not the problem's own (the
// timed samples'). W and b are taken from the host copies the run keeps, never from buffers a
// backend can write, and widened to double once. The GEMM is cuBLAS DGEMM; bias and both Mish
// run in double (PyTorch's x * tanh(log1p(exp(x))), as core/reference/reference.cpp's mish_double).
// All work is enqueued on the stream given at construction; the calls that return figures or
// data synchronize it.
class DeviceReference {
 public:
  // Uses inputs.w and inputs.b only (inputs.x may be empty). Blocks until W and b are on the
  // device. Throws std::invalid_argument if their sizes do not match the problem or a size does
  // not fit cuBLAS's int dimensions.
  DeviceReference(const Problem& problem, const HostInputs& inputs, cudaStream_t stream);
  ~DeviceReference();
  DeviceReference(const DeviceReference&) = delete;
  DeviceReference& operator=(const DeviceReference&) = delete;

  // Device bytes an instance allocates: W, b, x and the reference in double and the check's
  // totals. The cuBLAS handle's own workspace pool is not counted, as no backend counts it.
  static uint64_t bytes_needed(const Problem& problem);

  // The reference for x (device pointer, m*k floats, read only) into its own buffer; enqueued
  // on the stream, returns without waiting.
  void compute(const float* x);

  // y (device, m*n floats) against the last computed reference: the same figures as verify() in
  // core/verify/verify.h on the host (checked, mismatches, nonfinite, max_abs, max_rel, the worst
  // element with the same scoring and the same tie-break: lowest index among equal scores).
  // worst.input_magnitude is left 0, as verify() leaves it; input_magnitude() gives it.
  // Synchronizes the stream and returns.
  Verification check(const float* y, const Tolerance& tolerance);

  // sum_k |x[row,k] w[col,k]| + |b[col]| in double, as verify.h's input_magnitude, where x is the
  // device x last passed to compute() (it must still be valid). Synchronizes the stream. Throws
  // std::out_of_range for a row or column outside the problem.
  double input_magnitude(const float* x, int64_t row, int64_t col);

  // The last reference, copied to the host (m*n doubles, row-major). Synchronizes the stream.
  std::vector<double> download();

 private:
  Problem problem_;
  cudaStream_t stream_;
  cublasHandle_t handle_ = nullptr;
  DeviceBuffer<double> w_;    // [n, k]
  DeviceBuffer<double> b_;    // [n]
  DeviceBuffer<double> x_;    // [m, k]: the last x, widened
  DeviceBuffer<double> ref_;  // [m, n]
  DeviceBuffer<DeviceCheckTotals> totals_;
  DeviceBuffer<double> magnitude_;
};

}  // namespace mish
