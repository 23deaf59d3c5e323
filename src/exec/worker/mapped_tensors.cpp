#include "exec/worker/mapped_tensors.h"

#include <fmt/format.h>
#include <unistd.h>

#include <stdexcept>

#include "base/cuda/cuda_check.cuh"

namespace mish {
namespace {

cudaIpcMemHandle_t handle_from_hex(const std::string& text) {
  cudaIpcMemHandle_t handle{};
  if (text.size() != 2 * sizeof(handle)) throw std::runtime_error("malformed CUDA IPC handle");
  auto* bytes = reinterpret_cast<unsigned char*>(&handle);
  for (size_t i = 0; i < sizeof(handle); ++i)
    bytes[i] = static_cast<unsigned char>(std::stoul(text.substr(2 * i, 2), nullptr, 16));
  return handle;
}

}  // namespace

MappedTensors::MappedTensors(const nlohmann::json& d, std::vector<int> fds) {
  if (d.at("kind") == "host") {
    if (fds.size() != 2) {
      for (int fd : fds) ::close(fd);
      throw std::runtime_error("shared host tensors arrived without their two descriptors");
    }
    try {
      host_ = std::make_unique<SharedMemory>(fds[0], d.at("bytes").get<size_t>());
    } catch (...) {
      ::close(fds[1]);
      throw;
    }
    host_store_ = std::make_unique<SharedMemory>(fds[1], d.at("store_bytes").get<size_t>());
    char* base = static_cast<char*>(host_->data());
    tensors_ = {reinterpret_cast<const float*>(base + d.at("x").get<size_t>()),
                reinterpret_cast<const float*>(base + d.at("w").get<size_t>()),
                reinterpret_cast<const float*>(base + d.at("b").get<size_t>()),
                reinterpret_cast<float*>(base + d.at("y").get<size_t>())};
    store_ = {static_cast<float*>(host_store_->data()), d.at("slots").get<uint32_t>()};
    return;
  }
  for (int fd : fds) ::close(fd);
  void* pointers[5];
  const char* names[] = {"x", "w", "b", "y", "store"};
  try {
    for (int i = 0; i < 5; ++i) {
      MISH_CUDA_CHECK(cudaIpcOpenMemHandle(&pointers[i], handle_from_hex(d.at(names[i])),
                                           cudaIpcMemLazyEnablePeerAccess));
      opened_.push_back(pointers[i]);
    }
  } catch (...) {
    for (void* pointer : opened_) cudaIpcCloseMemHandle(pointer);
    throw;
  }
  tensors_ = {static_cast<const float*>(pointers[0]), static_cast<const float*>(pointers[1]),
              static_cast<const float*>(pointers[2]), static_cast<float*>(pointers[3])};
  store_ = {static_cast<float*>(pointers[4]), d.at("slots").get<uint32_t>()};
}

MappedTensors::~MappedTensors() {
  for (void* pointer : opened_) cudaIpcCloseMemHandle(pointer);
}

}  // namespace mish
