// One device allocation carved into a backend's extra buffers (split operands, partial sums).
// Parts are reserved first, then allocated together, so the backend knows and reports the bytes
// it needs, and an out-of-memory names them instead of failing somewhere in the middle.
#pragma once
#include <cuda_runtime.h>

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "base/cuda/cuda_check.cuh"

namespace mish {

class DeviceArena {
 public:
  DeviceArena() = default;
  ~DeviceArena() {
    if (base_ != nullptr) MISH_CUDA_CHECK_NOTHROW(cudaFree(base_));
  }
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;

  // A handle on a part; valid once allocate() has succeeded.
  template <typename T>
  struct Part {
    size_t offset = 0;
  };

  template <typename T>
  Part<T> reserve(size_t count) {
    const Part<T> part{bytes_};
    bytes_ += (count * sizeof(T) + kAlignment - 1) / kAlignment * kAlignment;
    return part;
  }

  // Allocates every reserved part, zero-filled. Out of memory: a CudaError that says who needed
  // how much.
  void allocate(std::string_view owner) {
    if (bytes_ == 0) return;
    const cudaError_t status = cudaMalloc(&base_, bytes_);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw CudaError(fmt::format("{} needs {} bytes ({:.2f} GiB) of device memory for its buffers; "
                                  "cudaMalloc failed with cudaErrorMemoryAllocation",
                                  owner, bytes_, double(bytes_) / (1 << 30)),
                      status);
    }
    MISH_CUDA_CHECK(status);
    // cudaMemset runs on the legacy default stream, which the tool's non-blocking streams do not
    // wait for: the zeros must have landed before any kernel on them reads the buffers.
    MISH_CUDA_CHECK(cudaMemset(base_, 0, bytes_));
    MISH_CUDA_CHECK(cudaDeviceSynchronize());
  }

  template <typename T>
  T* get(const Part<T>& part) const {
    return reinterpret_cast<T*>(static_cast<char*>(base_) + part.offset);
  }

  size_t bytes() const { return bytes_; }

 private:
  static constexpr size_t kAlignment = 256;
  void* base_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace mish
