#include "base/env/cpu_threads.h"

#include <sched.h>

#include <algorithm>

namespace mish {

int default_cpu_threads() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const int cores = sched_getaffinity(0, sizeof(allowed), &allowed) == 0 ? CPU_COUNT(&allowed) : 1;
  return std::clamp(cores / 2, 1, kMaxCpuThreads);
}

}  // namespace mish
