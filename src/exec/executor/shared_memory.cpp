#include "exec/executor/shared_memory.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/common/errors.h"

namespace mish {
namespace {

void* map(int fd, size_t bytes) {
  if (bytes == 0) return nullptr;
  void* data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED)
    throw EnvironmentError(fmt::format("cannot map {} bytes of shared host memory: {}", bytes,
                                       std::strerror(errno)));
  return data;
}

}  // namespace

SharedMemory::SharedMemory(size_t bytes) : bytes_(bytes) {
  fd_ = ::memfd_create("mishbench-tensors", MFD_CLOEXEC);
  if (fd_ < 0 || ::ftruncate(fd_, static_cast<off_t>(bytes)) != 0) {
    const int error = errno;
    if (fd_ >= 0) ::close(fd_);
    throw EnvironmentError(fmt::format("cannot create {} bytes of shared host memory: {}", bytes,
                                       std::strerror(error)));
  }
  try {
    data_ = map(fd_, bytes);
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

SharedMemory::SharedMemory(int fd, size_t bytes) : fd_(fd), bytes_(bytes) {
  try {
    data_ = map(fd_, bytes);
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

SharedMemory::~SharedMemory() {
  if (data_ != nullptr) ::munmap(data_, bytes_);
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace mish
