#include "run/tenant_watch.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>

namespace mish {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(100);

std::string process_name(unsigned pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

}  // namespace

TenantWatch::TenantWatch(const ClockMonitor* monitor, std::vector<unsigned> own)
    : monitor_(monitor), own_(std::move(own)) {
  own_.push_back(static_cast<unsigned>(::getpid()));
  if (monitor_ != nullptr) thread_ = std::thread([this] { poll(); });
}

TenantWatch::~TenantWatch() { finish(); }

void TenantWatch::poll() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    lock.unlock();
    const auto processes = monitor_->compute_processes();
    lock.lock();
    if (processes) {
      for (const GpuProcess& p : *processes) {
        if (std::find(own_.begin(), own_.end(), p.pid) != own_.end()) continue;
        OtherProcess& entry = seen_[p.pid];
        if (entry.pid == 0) entry = {p.pid, process_name(p.pid), p.used_bytes};
        entry.used_bytes = std::max(entry.used_bytes, p.used_bytes);
      }
    }
    wake_.wait_for(lock, kPollInterval, [this] { return stop_; });
  }
}

std::vector<OtherProcess> TenantWatch::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<OtherProcess> list;
  for (const auto& [pid, process] : seen_) list.push_back(process);
  return list;
}

}  // namespace mish
