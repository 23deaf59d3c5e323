// Watches, while a series is sampled, for processes other than the tool's own that hold a compute
// context on the GPU (NVML lists them): another job on a shared runner skews the medians without
// a word. Polls a few times a second from a thread of its own, outside the timed work.
#pragma once
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "core/outcome/outcome.h"
#include "core/timing/clocks.h"

namespace mish {

class TenantWatch {
 public:
  // `monitor` may be null (no NVML): then nothing is watched. `own`: the tool's and its workers'
  // process ids, which never count.
  TenantWatch(const ClockMonitor* monitor, std::vector<unsigned> own);
  ~TenantWatch();
  TenantWatch(const TenantWatch&) = delete;
  TenantWatch& operator=(const TenantWatch&) = delete;

  // Stops watching; every other process seen, once each.
  std::vector<OtherProcess> finish();

 private:
  void poll();

  const ClockMonitor* monitor_;
  std::vector<unsigned> own_;
  bool stop_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<unsigned, OtherProcess> seen_;
  std::thread thread_;
};

}  // namespace mish
