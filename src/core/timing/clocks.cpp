#include "core/timing/clocks.h"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>

namespace mish {
namespace {

// The few NVML declarations we use (ABI of nvml.h; no header or link dependency).
using NvmlReturn = int;
using NvmlDevice = void*;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;         // NVML_CLOCK_SM
constexpr int kNvmlTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU

// nvmlClocksEventReason* bits and the names we report them under.
struct ReasonBit {
  uint64_t bit;
  const char* name;
  bool throttles;  // slows the GPU below what the workload asks for
};
constexpr ReasonBit kReasons[] = {
    {0x1, "gpu_idle", false},
    {0x2, "applications_clocks_setting", false},
    {0x4, "sw_power_cap", true},
    {0x8, "hw_slowdown", true},
    {0x10, "sync_boost", false},
    {0x20, "sw_thermal_slowdown", true},
    {0x40, "hw_thermal_slowdown", true},
    {0x80, "hw_power_brake_slowdown", true},
    {0x100, "display_clock_setting", false},
};

// nvmlProcessInfo_v2_t, what nvmlDeviceGetComputeRunningProcesses_v2 fills in.
struct NvmlProcessInfo {
  unsigned pid;
  unsigned long long used_gpu_memory;
  unsigned gpu_instance_id;
  unsigned compute_instance_id;
};
constexpr NvmlReturn kNvmlInsufficientSize = 7;  // NVML_ERROR_INSUFFICIENT_SIZE

template <typename F>
F symbol(void* library, const char* name) {
  return reinterpret_cast<F>(dlsym(library, name));
}

}  // namespace

struct ClockMonitor::Api {
  void* library = nullptr;
  NvmlReturn (*init)() = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  const char* (*error_string)(NvmlReturn) = nullptr;
  NvmlReturn (*handle_by_pci_bus_id)(const char*, NvmlDevice*) = nullptr;
  NvmlReturn (*clock_info)(NvmlDevice, int, unsigned*) = nullptr;
  NvmlReturn (*max_clock_info)(NvmlDevice, int, unsigned*) = nullptr;
  NvmlReturn (*temperature)(NvmlDevice, int, unsigned*) = nullptr;
  NvmlReturn (*power_usage)(NvmlDevice, unsigned*) = nullptr;
  NvmlReturn (*event_reasons)(NvmlDevice, unsigned long long*) = nullptr;
  NvmlReturn (*compute_processes)(NvmlDevice, unsigned*, NvmlProcessInfo*) = nullptr;
  bool initialized = false;

  ~Api() {
    if (initialized) shutdown();
    if (library != nullptr) dlclose(library);
  }
};

bool ClockReading::throttled() const {
  for (const ReasonBit& reason : kReasons)
    if (reason.throttles && (reasons & reason.bit) != 0) return true;
  return false;
}

std::vector<std::string> throttle_reason_names(uint64_t reasons) {
  std::vector<std::string> names;
  for (const ReasonBit& reason : kReasons)
    if (reason.throttles && (reasons & reason.bit) != 0) names.emplace_back(reason.name);
  return names;
}

std::unique_ptr<ClockMonitor> ClockMonitor::open(int cuda_ordinal, std::string* why) {
  auto fail = [why](std::string reason) {
    if (why != nullptr) *why = std::move(reason);
    return nullptr;
  };
  auto api = std::make_unique<Api>();
  api->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (api->library == nullptr) return fail("libnvidia-ml.so.1 not found");
  api->init = symbol<decltype(api->init)>(api->library, "nvmlInit_v2");
  api->shutdown = symbol<decltype(api->shutdown)>(api->library, "nvmlShutdown");
  api->error_string = symbol<decltype(api->error_string)>(api->library, "nvmlErrorString");
  api->handle_by_pci_bus_id = symbol<decltype(api->handle_by_pci_bus_id)>(
      api->library, "nvmlDeviceGetHandleByPciBusId_v2");
  api->clock_info = symbol<decltype(api->clock_info)>(api->library, "nvmlDeviceGetClockInfo");
  api->max_clock_info =
      symbol<decltype(api->max_clock_info)>(api->library, "nvmlDeviceGetMaxClockInfo");
  api->temperature = symbol<decltype(api->temperature)>(api->library, "nvmlDeviceGetTemperature");
  api->power_usage = symbol<decltype(api->power_usage)>(api->library, "nvmlDeviceGetPowerUsage");
  // Renamed from "throttle" to "event" reasons in newer drivers; both return the same bits.
  api->event_reasons = symbol<decltype(api->event_reasons)>(
      api->library, "nvmlDeviceGetCurrentClocksEventReasons");
  if (api->event_reasons == nullptr)
    api->event_reasons = symbol<decltype(api->event_reasons)>(
        api->library, "nvmlDeviceGetCurrentClocksThrottleReasons");
  api->compute_processes = symbol<decltype(api->compute_processes)>(
      api->library, "nvmlDeviceGetComputeRunningProcesses_v2");
  if (api->init == nullptr || api->shutdown == nullptr || api->error_string == nullptr ||
      api->handle_by_pci_bus_id == nullptr || api->clock_info == nullptr)
    return fail("libnvidia-ml.so.1 lacks the functions needed");
  const NvmlReturn status = api->init();
  if (status != kNvmlSuccess) return fail(fmt::format("nvmlInit failed: {}", api->error_string(status)));
  api->initialized = true;
  // Match by PCI bus id: CUDA and NVML number devices differently (CUDA_VISIBLE_DEVICES).
  char bus_id[32] = {};
  if (cudaDeviceGetPCIBusId(bus_id, sizeof(bus_id), cuda_ordinal) != cudaSuccess) {
    cudaGetLastError();
    return fail("cannot read the CUDA device's PCI bus id");
  }
  NvmlDevice device = nullptr;
  const NvmlReturn found = api->handle_by_pci_bus_id(bus_id, &device);
  if (found != kNvmlSuccess)
    return fail(fmt::format("NVML has no device at {}: {}", bus_id, api->error_string(found)));
  return std::unique_ptr<ClockMonitor>(new ClockMonitor(std::move(api), device));
}

ClockMonitor::ClockMonitor(std::unique_ptr<Api> api, void* device)
    : api_(std::move(api)), device_(device) {}

ClockMonitor::~ClockMonitor() = default;

std::optional<ClockReading> ClockMonitor::read() const {
  ClockReading reading;
  if (api_->clock_info(device_, kNvmlClockSm, &reading.sm_mhz) != kNvmlSuccess) return std::nullopt;
  unsigned long long reasons = 0;
  if (api_->event_reasons != nullptr && api_->event_reasons(device_, &reasons) == kNvmlSuccess)
    reading.reasons = reasons;
  unsigned value = 0;
  if (api_->temperature != nullptr &&
      api_->temperature(device_, kNvmlTemperatureGpu, &value) == kNvmlSuccess)
    reading.temperature_c = value;
  if (api_->power_usage != nullptr && api_->power_usage(device_, &value) == kNvmlSuccess)
    reading.power_w = value / 1000.0;  // NVML reports milliwatts
  return reading;
}

std::optional<unsigned> ClockMonitor::max_sm_mhz() const {
  unsigned mhz = 0;
  if (api_->max_clock_info == nullptr ||
      api_->max_clock_info(device_, kNvmlClockSm, &mhz) != kNvmlSuccess)
    return std::nullopt;
  return mhz;
}

ClockSummary summarize_clocks(const std::vector<std::optional<ClockReading>>& readings) {
  ClockSummary summary;
  std::vector<unsigned> mhz;
  for (size_t i = 0; i < readings.size(); ++i) {
    if (!readings[i]) continue;
    const ClockReading& r = *readings[i];
    mhz.push_back(r.sm_mhz);
    if (r.throttled()) {
      summary.throttled_samples.push_back(static_cast<int>(i));
      summary.reasons_seen |= r.reasons;
    }
    if (r.temperature_c)
      summary.temperature_c_max = std::max(summary.temperature_c_max.value_or(0), *r.temperature_c);
    if (r.power_w) summary.power_w_max = std::max(summary.power_w_max.value_or(0.0), *r.power_w);
  }
  summary.readings = static_cast<int>(mhz.size());
  if (mhz.empty()) return summary;
  std::sort(mhz.begin(), mhz.end());
  summary.sm_mhz_min = mhz.front();
  summary.sm_mhz_max = mhz.back();
  summary.sm_mhz_median = mhz[mhz.size() / 2];
  return summary;
}

std::optional<std::vector<GpuProcess>> ClockMonitor::compute_processes() const {
  if (api_->compute_processes == nullptr) return std::nullopt;
  std::vector<NvmlProcessInfo> infos(64);
  for (int attempt = 0; attempt < 4; ++attempt) {
    unsigned count = static_cast<unsigned>(infos.size());
    const NvmlReturn status = api_->compute_processes(device_, &count, infos.data());
    if (status == kNvmlInsufficientSize) {
      infos.resize(2 * count + 16);
      continue;
    }
    if (status != kNvmlSuccess) return std::nullopt;
    std::vector<GpuProcess> processes;
    for (unsigned i = 0; i < count; ++i)
      processes.push_back({infos[i].pid, infos[i].used_gpu_memory});
    return processes;
  }
  return std::nullopt;
}

}  // namespace mish
