#include "env/environment.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "cuda/cuda_check.cuh"

namespace mish {

std::string DeviceInfo::compute_capability() const { return fmt::format("{}.{}", cc_major, cc_minor); }

std::string cuda_version_string(int version) {
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

std::optional<DeviceInfo> query_device(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (why != nullptr)
      *why = status != cudaSuccess ? cudaGetErrorString(status) : "no CUDA device is visible";
    cudaGetLastError();  // clear the sticky error a failed query leaves
    return std::nullopt;
  }
  DeviceInfo info;
  MISH_CUDA_CHECK(cudaGetDevice(&info.ordinal));
  cudaDeviceProp prop{};
  MISH_CUDA_CHECK(cudaGetDeviceProperties(&prop, info.ordinal));
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sms = prop.multiProcessorCount;
  info.l2_bytes = static_cast<size_t>(prop.l2CacheSize);
  MISH_CUDA_CHECK(cudaMemGetInfo(&info.free_bytes, &info.memory_bytes));
  MISH_CUDA_CHECK(cudaDriverGetVersion(&info.driver_version));
  MISH_CUDA_CHECK(cudaRuntimeGetVersion(&info.runtime_version));
  int major = 0, minor = 0, patch = 0;
  cublasGetProperty(MAJOR_VERSION, &major);
  cublasGetProperty(MINOR_VERSION, &minor);
  cublasGetProperty(PATCH_LEVEL, &patch);
  info.cublas_version = major * 10000 + minor * 100 + patch;
  return info;
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
