// cp.async (sm_80 and newer): copies from global to shared memory that bypass the registers and
// run in the background. Completion is tracked per thread in commit groups: copy_async_wait<N>
// waits until at most N of the thread's groups are still pending. Compiled only for sm_80+
// device code.
#pragma once
#include <cstdint>

namespace mish {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

// Copies kBytes (4, through L1, or 16, through L2 only) from `src` to shared `dst`; an invalid
// source is not read and the destination is zero-filled.
template <int kBytes>
__device__ __forceinline__ void copy_async(void* dst, const void* src, bool valid) {
  static_assert(kBytes == 4 || kBytes == 16, "cp.async sizes used here");
  const auto to = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  if constexpr (kBytes == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to), "l"(src),
                 "r"(valid ? 16 : 0)
                 : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(to), "l"(src),
                 "r"(valid ? 4 : 0)
                 : "memory");
  }
}

__device__ __forceinline__ void copy_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int kPending>
__device__ __forceinline__ void copy_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

#endif  // sm_80+ device code

}  // namespace mish
