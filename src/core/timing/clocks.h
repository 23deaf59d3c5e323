// GPU clock, temperature, power and throttle state during sampling, read through NVML. NVML is
// loaded at run time (dlopen "libnvidia-ml.so.1"): the tool builds and runs without it, and then
// simply reports that clocks were not recorded. Read-only: clocks are never changed.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mish {

struct ClockReading {
  unsigned sm_mhz = 0;
  uint64_t reasons = 0;  // NVML clocks event (throttle) reason bits
  std::optional<unsigned> temperature_c;
  std::optional<double> power_w;
  bool throttled() const;  // power cap, thermal or hardware slowdown active
};

// Names of the throttling reasons set in `reasons` ("sw_power_cap", "hw_thermal_slowdown", ...).
std::vector<std::string> throttle_reason_names(uint64_t reasons);

// A process holding a compute context on the GPU, as NVML lists it.
struct GpuProcess {
  unsigned pid = 0;
  uint64_t used_bytes = 0;  // device memory it holds (NVML may not know: then a huge value)
};

class ClockMonitor {
 public:
  // The NVML view of the CUDA device `cuda_ordinal`; nullptr (with the reason in `why`) when
  // NVML or the device cannot be opened.
  static std::unique_ptr<ClockMonitor> open(int cuda_ordinal, std::string* why);
  ~ClockMonitor();
  ClockMonitor(const ClockMonitor&) = delete;
  ClockMonitor& operator=(const ClockMonitor&) = delete;

  // The current state; nullopt if the SM clock cannot be read.
  std::optional<ClockReading> read() const;
  std::optional<unsigned> max_sm_mhz() const;  // the device's maximum (boost) SM clock
  // The processes with a compute context on the device; nullopt when NVML cannot say.
  std::optional<std::vector<GpuProcess>> compute_processes() const;

  struct Api;

 private:
  ClockMonitor(std::unique_ptr<Api> api, void* device);
  std::unique_ptr<Api> api_;
  void* device_;
};

// Per-series summary of the readings taken with each sample.
struct ClockSummary {
  int readings = 0;
  unsigned sm_mhz_min = 0, sm_mhz_median = 0, sm_mhz_max = 0;
  std::vector<int> throttled_samples;  // indices of samples read while throttled
  uint64_t reasons_seen = 0;           // union of the throttle reasons of those samples
  std::optional<unsigned> temperature_c_max;
  std::optional<double> power_w_max;
};
ClockSummary summarize_clocks(const std::vector<std::optional<ClockReading>>& readings);

}  // namespace mish
