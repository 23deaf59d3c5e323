// What the report records about the machine: the CUDA device (if any) and the host.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace mish {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
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

// nullopt when no CUDA device (or driver) is usable; the reason goes to `why`.
std::optional<DeviceInfo> query_device(std::string* why = nullptr);

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
