// How much host memory this process can still take, for checks made before a run allocates
// (a library that cannot allocate may retry forever rather than fail).
#pragma once
#include <cstdint>
#include <optional>

namespace mish {

struct HostMemoryLeft {
  // Address space left under the process's limit (ulimit -v): the limit less what is mapped now.
  std::optional<uint64_t> address_space;
  // Memory the host can give without swapping (MemAvailable), or less under the memory limit of
  // the process's cgroup (memory.max less memory.current).
  std::optional<uint64_t> available;
};

// Each figure is nullopt where there is no limit, or it cannot be read.
HostMemoryLeft host_memory_left();

}  // namespace mish
