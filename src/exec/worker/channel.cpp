#include "exec/worker/channel.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mish {
namespace {

// A message longer than this is not one of ours: the peer is broken or hostile.
constexpr size_t kMaxMessageBytes = 64 << 20;
constexpr size_t kMaxFds = 8;

}  // namespace

Channel::~Channel() {
  for (int fd : pending_fds_) ::close(fd);
  if (fd_ >= 0) ::close(fd_);
  if (peer_fd_ >= 0) ::close(peer_fd_);
}

void Channel::watch(pid_t pid) {
  if (peer_fd_ >= 0) ::close(peer_fd_);
  peer_fd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));  // close-on-exec by default
}

bool Channel::send(const nlohmann::json& message, const std::vector<int>& fds) {
  std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line.push_back('\n');
  size_t sent = 0;
  bool fds_sent = fds.empty();
  while (sent < line.size()) {
    iovec io{line.data() + sent, line.size() - sent};
    msghdr header{};
    header.msg_iov = &io;
    header.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
    if (!fds_sent) {
      header.msg_control = control;
      header.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
      cmsghdr* c = CMSG_FIRSTHDR(&header);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    const ssize_t n = ::sendmsg(fd_, &header, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      error_ = std::strerror(errno);
      return false;
    }
    sent += static_cast<size_t>(n);
    fds_sent = true;
  }
  return true;
}

bool Channel::fill(std::optional<std::chrono::steady_clock::time_point> deadline, Status& status) {
  while (true) {
    int wait_ms = -1;
    if (deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          *deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        status = Status::timeout;
        return false;
      }
      wait_ms = static_cast<int>(std::min<long long>(left.count(), 1 << 30));
    }
    pollfd p[2] = {{fd_, POLLIN, 0}, {peer_fd_, POLLIN, 0}};  // a negative fd: ignored
    const int ready = ::poll(p, 2, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline check above decides
    if (p[0].revents == 0 && p[1].revents != 0) {  // it ended, and all it sent has been read
      error_ = "the peer process ended";
      status = Status::closed;
      return false;
    }
    char data[1 << 16];
    iovec io{data, sizeof(data)};
    msghdr header{};
    header.msg_iov = &io;
    header.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
    header.msg_control = control;
    header.msg_controllen = sizeof(control);
    const ssize_t n = ::recvmsg(fd_, &header, MSG_CMSG_CLOEXEC);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      error_ = std::strerror(errno);
      status = Status::closed;
      return false;
    }
    for (cmsghdr* c = CMSG_FIRSTHDR(&header); c != nullptr; c = CMSG_NXTHDR(&header, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (size_t i = 0; i < count; ++i) {
        int fd;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        pending_fds_.push_back(fd);
      }
    }
    if (n == 0) {
      status = Status::closed;
      return false;
    }
    buffer_.append(data, static_cast<size_t>(n));
    return true;
  }
}

Channel::Status Channel::receive(Received& into, std::optional<std::chrono::milliseconds> timeout) {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (timeout) deadline = std::chrono::steady_clock::now() + *timeout;
  size_t end;
  while ((end = buffer_.find('\n')) == std::string::npos) {
    if (buffer_.size() > kMaxMessageBytes) {
      error_ = "a message longer than 64 MiB";
      return Status::malformed;
    }
    Status status = Status::message;
    if (!fill(deadline, status)) return status;
  }
  const std::string line = buffer_.substr(0, end);
  buffer_.erase(0, end + 1);
  into.fds = std::move(pending_fds_);
  pending_fds_.clear();
  into.message = nlohmann::json::parse(line, nullptr, false);
  if (into.message.is_discarded() || !into.message.is_object()) {
    error_ = "a line that is not a JSON object";
    return Status::malformed;
  }
  return Status::message;
}

}  // namespace mish
