// What the report records about the machine: the CUDA device (if any) and the host.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace mish {

struct DeviceInfo {
  int ordinal = 0;   // the CUDA device index
  std::string name;
  std::string uuid;        // "GPU-8f1b63c2-...", as nvidia-smi prints it
  std::string pci_bus_id;  // "0000:19:00.0": PCI domain, bus, device and function
  int cc_major = 0, cc_minor = 0;
  int sms = 0;
  size_t l2_bytes = 0;
  size_t memory_bytes = 0;
  size_t free_bytes = 0;
  int driver_version = 0;   // e.g. 13000
  int runtime_version = 0;  // e.g. 13000
  int cublas_version = 0;   // e.g. 130100
  std::string compute_capability() const;
};

// The CUDA devices this process sees; 0, with the reason in `why`, when there is none or no driver.
int visible_device_count(std::string* why = nullptr);

// The calling thread's current device (device 0 unless it chose another); nullopt when no CUDA
// device (or driver) is usable, the reason in `why`.
std::optional<DeviceInfo> query_device(std::string* why = nullptr);

// Device `ordinal`, which becomes the calling thread's current device (reading its free memory
// needs a context there); nullopt, the reason in `why`, when it does not exist or cannot be used.
std::optional<DeviceInfo> query_device(int ordinal, std::string* why);

// cudaDeviceProp::uuid as nvidia-smi prints it: "GPU-" and 32 hex digits grouped 8-4-4-4-12.
std::string format_gpu_uuid(const unsigned char* bytes16);
// "0000:19:00.0" from the PCI domain, bus and device numbers (function 0, as CUDA names it).
std::string format_pci_bus_id(int domain, int bus, int device);

struct HostInfo {
  std::string hostname;
  std::string cpu;
  int cores = 0;
  std::string os;
};
HostInfo query_host();

// "13.0" from 13000.
std::string cuda_version_string(int version);

nlohmann::json to_json(const DeviceInfo& device);
nlohmann::json to_json(const HostInfo& host);

}  // namespace mish
