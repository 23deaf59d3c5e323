#include "base/env/environment.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "base/cuda/cuda_check.cuh"

namespace mish {

std::string DeviceInfo::compute_capability() const { return fmt::format("{}.{}", cc_major, cc_minor); }

std::string cuda_version_string(int version) {
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

int visible_device_count(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaSuccess && count > 0) return count;
  if (why != nullptr)
    *why = status != cudaSuccess ? cudaGetErrorString(status) : "no CUDA-capable device is visible";
  cudaGetLastError();  // clear the sticky error a failed query leaves
  return 0;
}

std::optional<DeviceInfo> query_device(std::string* why) {
  if (visible_device_count(why) == 0) return std::nullopt;
  int current = 0;
  MISH_CUDA_CHECK(cudaGetDevice(&current));
  return query_device(current, why);
}

std::optional<DeviceInfo> query_device(int ordinal, std::string* why) {
  const int count = visible_device_count(why);
  if (count == 0) return std::nullopt;
  const auto unusable = [&](const std::string& reason) -> std::optional<DeviceInfo> {
    if (why != nullptr) *why = reason;
    cudaGetLastError();
    return std::nullopt;
  };
  if (ordinal < 0 || ordinal >= count)
    return unusable(fmt::format("there is no device {}: {} visible", ordinal, count));
  DeviceInfo info;
  info.ordinal = ordinal;
  // A device another process holds exclusively, or one in prohibited mode, fails here.
  cudaError_t status = cudaSetDevice(ordinal);
  if (status == cudaSuccess) status = cudaMemGetInfo(&info.free_bytes, &info.memory_bytes);
  if (status != cudaSuccess) return unusable(cudaGetErrorString(status));
  cudaDeviceProp prop{};
  MISH_CUDA_CHECK(cudaGetDeviceProperties(&prop, info.ordinal));
  info.name = prop.name;
  info.uuid = format_gpu_uuid(reinterpret_cast<const unsigned char*>(prop.uuid.bytes));
  info.pci_bus_id = format_pci_bus_id(prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sms = prop.multiProcessorCount;
  info.l2_bytes = static_cast<size_t>(prop.l2CacheSize);
  MISH_CUDA_CHECK(cudaDriverGetVersion(&info.driver_version));
  MISH_CUDA_CHECK(cudaRuntimeGetVersion(&info.runtime_version));
  int major = 0, minor = 0, patch = 0;
  cublasGetProperty(MAJOR_VERSION, &major);
  cublasGetProperty(MINOR_VERSION, &minor);
  cublasGetProperty(PATCH_LEVEL, &patch);
  info.cublas_version = major * 10000 + minor * 100 + patch;
  return info;
}

std::string format_gpu_uuid(const unsigned char* b) {
  return fmt::format(
      "GPU-{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-"
      "{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
      b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
      b[14], b[15]);
}

std::string format_pci_bus_id(int domain, int bus, int device) {
  return fmt::format("{:04x}:{:02x}:{:02x}.0", domain, bus, device);
}

HostInfo query_host() {
  HostInfo host;
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) == 0) host.hostname = name;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      host.cpu = line.substr(line.find(':') + 2);
      break;
    }
  }
  host.cores = static_cast<int>(std::thread::hardware_concurrency());
  utsname uts{};
  if (uname(&uts) == 0) host.os = fmt::format("{} {} {}", uts.sysname, uts.release, uts.machine);
  return host;
}

nlohmann::json to_json(const DeviceInfo& d) {
  return {{"ordinal", d.ordinal},
          {"name", d.name},
          {"uuid", d.uuid},
          {"pci_bus_id", d.pci_bus_id},
          {"cc", d.compute_capability()},
          {"sms", d.sms},
          {"l2_bytes", d.l2_bytes},
          {"memory_bytes", d.memory_bytes},
          {"driver", cuda_version_string(d.driver_version)},
          {"cuda_runtime", cuda_version_string(d.runtime_version)},
          {"cublas", fmt::format("{}.{}.{}", d.cublas_version / 10000, d.cublas_version / 100 % 100,
                                 d.cublas_version % 100)}};
}

nlohmann::json to_json(const HostInfo& h) {
  return {{"hostname", h.hostname}, {"cpu", h.cpu}, {"cores", h.cores}, {"os", h.os}};
}

}  // namespace mish
