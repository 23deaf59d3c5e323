// Host memory two processes can map: an anonymous memory file (memfd) whose descriptor travels
// to a worker over its socket. Host backends' tensors live in one, so a worker process reads the
// run's inputs and writes its output in place, without copies.
#pragma once
#include <cstddef>
#include <string>

namespace mish {

class SharedMemory {
 public:
  // A new, zero-filled region of `bytes` (throws EnvironmentError when it cannot be had).
  explicit SharedMemory(size_t bytes);
  // Maps a region received from another process (takes ownership of `fd`).
  SharedMemory(int fd, size_t bytes);
  ~SharedMemory();
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;

  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace mish
