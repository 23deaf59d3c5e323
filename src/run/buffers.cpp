#include "run/buffers.h"

#include <limits>

#include "cuda/cuda_check.cuh"
#include "problem/generate_device.cuh"

namespace mish {

DeviceProblemBuffers::DeviceProblemBuffers(const Problem& p, cudaStream_t stream)
    : stream_(stream), x_(p.x_count()), w_(p.w_count()), b_(p.n), y_(p.y_count()) {
  const float bound = p.init_bound();
  generate_on_device(p.distribution, p.seed, Tensor::x, x_.get(), x_.size(), p.k, bound, stream);
  generate_on_device(p.distribution, p.seed, Tensor::w, w_.get(), w_.size(), p.k, bound, stream);
  generate_on_device(p.distribution, p.seed, Tensor::b, b_.get(), b_.size(), p.n, bound, stream);
  MISH_CUDA_CHECK(cudaStreamSynchronize(stream));
}

Tensors DeviceProblemBuffers::tensors() { return {x_.get(), w_.get(), b_.get(), y_.get()}; }

void DeviceProblemBuffers::poison_output() {
  MISH_CUDA_CHECK(cudaMemsetAsync(y_.get(), 0xff, y_.bytes(), stream_));
}

void DeviceProblemBuffers::read_output(std::vector<float>& y) {
  MISH_CUDA_CHECK(cudaStreamSynchronize(stream_));
  y.resize(y_.size());
  MISH_CUDA_CHECK(cudaMemcpy(y.data(), y_.get(), y_.bytes(), cudaMemcpyDeviceToHost));
}

HostProblemBuffers::HostProblemBuffers(const ProblemData& data)
    : x_(data.inputs.x), w_(data.inputs.w), b_(data.inputs.b), y_(data.problem.y_count()) {}

Tensors HostProblemBuffers::tensors() { return {x_.data(), w_.data(), b_.data(), y_.data()}; }

void HostProblemBuffers::poison_output() {
  y_.assign(y_.size(), std::numeric_limits<float>::quiet_NaN());
}

void HostProblemBuffers::read_output(std::vector<float>& y) { y = y_; }

}  // namespace mish
