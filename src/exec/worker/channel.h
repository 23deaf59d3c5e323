// One end of the socket between the tool and a worker process: JSON messages, one per line,
// with file descriptors passed alongside where a message needs them (shared host buffers).
// Reads wait with a deadline, so a silent peer is noticed rather than waited for forever.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mish {

class Channel {
 public:
  explicit Channel(int fd) : fd_(fd) {}  // takes ownership of a connected stream socket
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  int fd() const { return fd_; }

  // From now on a receive also ends (closed) when process `pid`, the peer, has ended, even while
  // the socket stays open because a process it left behind holds its end. Without pidfd_open
  // (Linux before 5.3) only the socket's end is seen.
  void watch(pid_t pid);

  // Sends one message, with `fds` attached; false when the peer is gone.
  bool send(const nlohmann::json& message, const std::vector<int>& fds = {});

  struct Received {
    nlohmann::json message;
    std::vector<int> fds;  // owned by the receiver now
  };
  enum class Status { message, closed, timeout, malformed };
  // Waits up to `timeout` for the next message (forever when nullopt).
  Status receive(Received& into, std::optional<std::chrono::milliseconds> timeout);
  const std::string& last_error() const { return error_; }

 private:
  bool fill(std::optional<std::chrono::steady_clock::time_point> deadline, Status& status);

  int fd_;
  int peer_fd_ = -1;  // a pidfd of the peer process: readable once it has ended
  std::string buffer_;       // bytes received past the last complete line
  std::vector<int> pending_fds_;
  std::string error_;
};

}  // namespace mish
