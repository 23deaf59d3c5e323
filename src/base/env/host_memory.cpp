#include "base/env/host_memory.h"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace mish {
namespace {

// "<key>: <n> kB" in a /proc file such as /proc/self/status or /proc/meminfo, in bytes.
std::optional<uint64_t> kib_field(const char* path, const std::string& key) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key + ":", 0) == 0) return std::stoull(line.substr(key.size() + 1)) << 10;
  return std::nullopt;
}

// A number in a cgroup file; nullopt for "max" or a file that is not there.
std::optional<uint64_t> cgroup_number(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  return std::stoull(text);
}

// memory.max less memory.current of this process's cgroup (v2), if it has a limit.
std::optional<uint64_t> cgroup_memory_left() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("0::", 0) != 0) continue;
    const std::string folder = "/sys/fs/cgroup" + line.substr(3);
    const auto limit = cgroup_number(folder + "/memory.max");
    const auto used = cgroup_number(folder + "/memory.current");
    if (!limit || !used) return std::nullopt;
    return *limit > *used ? *limit - *used : 0;
  }
  return std::nullopt;
}

}  // namespace

HostMemoryLeft host_memory_left() {
  HostMemoryLeft left;
  try {
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
      if (const auto mapped = kib_field("/proc/self/status", "VmSize"))
        left.address_space = limit.rlim_cur > *mapped ? limit.rlim_cur - *mapped : 0;
    }
    left.available = kib_field("/proc/meminfo", "MemAvailable");
    if (const auto in_cgroup = cgroup_memory_left())
      left.available = left.available ? std::min(*left.available, *in_cgroup) : *in_cgroup;
  } catch (const std::exception&) {  // a field that is not a number: not known
  }
  return left;
}

}  // namespace mish
