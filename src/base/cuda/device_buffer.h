// An owning device allocation of `count` elements of T.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "base/cuda/cuda_check.cuh"

namespace mish {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) : count_(count) {
    if (count_ > 0) MISH_CUDA_CHECK(cudaMalloc(&data_, count_ * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) MISH_CUDA_CHECK_NOTHROW(cudaFree(data_));
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept : data_(other.data_), count_(other.count_) {
    other.data_ = nullptr;
    other.count_ = 0;
  }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return data_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  size_t count_ = 0;
};

}  // namespace mish
