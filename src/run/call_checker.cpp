#include "run/call_checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/common/errors.h"
#include "base/cuda/cuda_check.cuh"
#include "core/problem/generate_device.cuh"
#include "core/reference/reference.h"
#include "core/verify/device_reference.h"
#include "core/verify/explain.h"
#include "exec/executor/call_hooks.h"

namespace mish {
namespace {

// The GPU reference must agree with the CPU one to this, relative to the largest output: both
// are float64 over the same float inputs, differing only in summation order.
constexpr double kReferenceAgreement = 1e-10;

// `y` against `reference`, the worst element's input magnitude and a failure's diagnosis taken
// from `inputs`.
Verification verify_against(const Problem& p, const float* y, const std::vector<double>& reference,
                            const HostInputs& inputs, const Tolerance& tolerance) {
  Verification v = verify(y, reference.data(), p.m, p.n, tolerance);
  if (v.worst.row >= 0)
    v.worst.input_magnitude = input_magnitude(inputs.x.data(), inputs.w.data(), inputs.b.data(),
                                              p.k, v.worst.row, v.worst.col);
  if (!v.passed())
    v.diagnosis = diagnose_mismatch(inputs.x.data(), inputs.w.data(), inputs.b.data(), y, p.m,
                                    p.n, p.k, tolerance);
  return v;
}

}  // namespace

CallChecker::CallChecker(const ProblemData& data, cudaStream_t stream)
    : data_(data), stream_(stream) {
  if (stream_ == nullptr) {
    drawn_.x.resize(data.problem.x_count());
    drawn_.w = data.inputs.w;
    drawn_.b = data.inputs.b;
    note_ = "CPU float64 (CBLAS dgemm) of each checked call's own x";
    return;
  }
  const Problem& p = data.problem;
  x_ = DeviceBuffer<float>(p.x_count());
  reference_ = std::make_unique<DeviceReference>(p, data.inputs, stream_);
  MISH_CUDA_CHECK(cudaMemcpyAsync(x_.get(), data.inputs.x.data(), x_.bytes(),
                                  cudaMemcpyHostToDevice, stream_));
  reference_->compute(x_.get());
  const std::vector<double> gpu = reference_->download();
  double largest = 0.0, differs = 0.0;
  for (size_t i = 0; i < gpu.size(); ++i) {
    largest = std::max(largest, std::fabs(data.reference[i]));
    const double d = std::fabs(gpu[i] - data.reference[i]);
    differs = std::isnan(d) ? INFINITY : std::max(differs, d);
  }
  const double relative = differs / std::max(largest, 1e-300);
  if (!(relative <= kReferenceAgreement))
    throw EnvironmentError(fmt::format(
        "the GPU float64 reference disagrees with the CPU float64 reference on {}'s x by {:.3g} "
        "relative to its largest output (allowed {:g}): outputs on fresh x cannot be checked",
        p.shape(), relative, kReferenceAgreement));
  note_ = fmt::format(
      "GPU float64 (cuBLAS DGEMM) of each checked call's own x; it agreed with the CPU float64 "
      "reference on the problem's x to {:.2g} relative",
      relative);
}

CallChecker::~CallChecker() = default;

Verification CallChecker::check(ProblemBuffers& buffers, uint32_t slot, uint64_t seed, bool main_x,
                                const Tolerance& tolerance, std::vector<float>& main_y) {
  if (main_x) return check_main(buffers, slot, tolerance, main_y);
  return stream_ != nullptr ? check_on_device(buffers, slot, seed, tolerance)
                            : check_on_host(buffers, slot, seed, tolerance);
}

Verification CallChecker::check_main(ProblemBuffers& buffers, uint32_t slot,
                                     const Tolerance& tolerance, std::vector<float>& y) {
  buffers.read_slot(slot, y);
  return verify_against(data_.problem, y.data(), data_.reference, data_.inputs, tolerance);
}

Verification CallChecker::check_on_device(ProblemBuffers& buffers, uint32_t slot, uint64_t seed,
                                          const Tolerance& tolerance) {
  const Problem& p = data_.problem;
  MISH_CUDA_CHECK(cudaDeviceSynchronize());  // the slot may have been written by a worker
  generate_on_device(p.distribution, seed, Tensor::x, x_.get(), x_.size(), uint64_t(p.k),
                     p.init_bound(), stream_);
  reference_->compute(x_.get());
  const float* y = buffers.store().base + uint64_t(slot) * p.y_count();
  Verification v = reference_->check(y, tolerance);
  if (v.worst.row >= 0)
    v.worst.input_magnitude = reference_->input_magnitude(x_.get(), v.worst.row, v.worst.col);
  return v;
}

Verification CallChecker::check_on_host(ProblemBuffers& buffers, uint32_t slot, uint64_t seed,
                                        const Tolerance& tolerance) {
  const Problem& p = data_.problem;
  draw_x_on_host(p, seed, drawn_.x.data());
  const float* y = buffers.store().base + uint64_t(slot) * p.y_count();
  return verify_against(p, y, compute_reference(p, drawn_), drawn_, tolerance);
}

}  // namespace mish
