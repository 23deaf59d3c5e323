// Thin wrappers over the Hopper (sm_90a) PTX the fused kernels use: shared-memory addresses,
// mbarriers, TMA tile loads (cp.async.bulk.tensor), wgmma descriptors, fences, groups and the
// wgmma shapes (m64nNk16 with fp32 or fp16 accumulators, both operands from shared memory). Each
// is one instruction or a fixed sequence; the PTX ISA is the reference for their semantics.
// Compiled only for sm_90a device code.
#pragma once
#include <cstdint>

#include <cuda.h>  // CUtensorMap

namespace mish {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

__device__ __forceinline__ uint32_t smem_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarrier_init(uint64_t* bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_address(bar)), "r"(arrivals)
               : "memory");
}

__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_address(bar)),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbarrier_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_address(bar)) : "memory");
}

// Waits until the phase of `parity` has completed. kClusterScope: acquires at cluster scope, so
// that what other CTAs of the cluster wrote before their (release) arrivals is visible after.
#define MISH_MBARRIER_TRY_WAIT(sem)                                      \
  "{\n"                                                                  \
  ".reg .pred ready;\n"                                                  \
  "mbarrier.try_wait.parity" sem ".shared::cta.b64 ready, [%1], %2;\n" \
  "selp.u32 %0, 1, 0, ready;\n"                                          \
  "}\n"
template <bool kClusterScope = false>
__device__ __forceinline__ void mbarrier_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    if constexpr (kClusterScope) {
      asm volatile(MISH_MBARRIER_TRY_WAIT(".acquire.cluster")
                   : "=r"(done)
                   : "r"(smem_address(bar)), "r"(parity)
                   : "memory");
    } else {
      asm volatile(MISH_MBARRIER_TRY_WAIT("")
                   : "=r"(done)
                   : "r"(smem_address(bar)), "r"(parity)
                   : "memory");
    }
  } while (done == 0);
}
#undef MISH_MBARRIER_TRY_WAIT

// Thread-block clusters: the CTAs of a cluster reach each other's shared memory through
// cluster_address.
__device__ __forceinline__ uint32_t cluster_cta_rank() {
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}

// Every thread of the cluster's CTAs arrives (release) and waits for all the others (acquire).
__device__ __forceinline__ void cluster_sync() {
  asm volatile(
      "barrier.cluster.arrive.release.aligned;\n"
      "barrier.cluster.wait.acquire.aligned;" ::
          : "memory");
}

// The address of `local`'s counterpart in the shared memory of the cluster's CTA `rank`.
__device__ __forceinline__ uint32_t cluster_address(const void* local, uint32_t rank) {
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(remote)
               : "r"(smem_address(local)), "r"(rank));
  return remote;
}

// One arrival on an mbarrier of a CTA of the cluster (its cluster_address), releasing this
// thread's earlier writes at cluster scope.
__device__ __forceinline__ void mbarrier_arrive_cluster(uint32_t remote_bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote_bar)
               : "memory");
}

__device__ __forceinline__ float load_shared_cluster(uint32_t remote) {
  float v;
  asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(remote) : "memory");
  return v;
}

// Loads the box at (column k0, row, part) of a split-operand map (hi part 0, lo part 1) into
// `dst`; completion counts the box's bytes on `bar`, out-of-bounds elements included (as zeros).
__device__ __forceinline__ void tma_load_tile(void* dst, const CUtensorMap* map, uint64_t* bar,
                                              int k0, int row, int part) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(smem_address(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(smem_address(bar)), "r"(k0), "r"(row), "r"(part)
      : "memory");
}

// Asks for the line holding `address` to be brought into this SM's L1 (no register waits on it).
__device__ __forceinline__ void prefetch_l1(const void* address) {
  asm volatile("prefetch.global.L1 [%0];" ::"l"(address));
}

// wgmma shared-memory matrix descriptor: K-major tile of 128-byte rows, 128-byte swizzle, groups
// of 8 rows 1024 bytes apart (stride byte offset); the leading byte offset is unused for this
// layout. Advancing the start address by 32 bytes selects the next k16 slice.
__device__ __forceinline__ uint64_t smem_descriptor(const void* tile) {
  uint64_t d = (smem_address(tile) & 0x3FFFF) >> 4;
  d |= uint64_t(1) << 16;
  d |= uint64_t(1024 >> 4) << 32;
  d |= uint64_t(1) << 62;
  return d;
}

__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(kPending) : "memory");
}

// Accumulator operand lists of the wgmma wrappers below: the asm text of a list of n registers
// (%0 .. %n-1), and the constraints that bind them to d[i] .. d[i + n - 1], "+f" for fp32
// accumulators and "+r" for fp16 pairs.
#define MISH_WGMMA_D2_TEXT \
  "{" \
  "%0, %1" \
  "}"
#define MISH_WGMMA_D4_TEXT \
  "{" \
  "%0, %1, %2, %3" \
  "}"
#define MISH_WGMMA_D8_TEXT \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7" \
  "}"
#define MISH_WGMMA_D16_TEXT \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15" \
  "}"
#define MISH_WGMMA_D32_TEXT \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31" \
  "}"
#define MISH_WGMMA_D64_TEXT \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63" \
  "}"
#define MISH_WGMMA_F1(d, i) "+f"(d[i])
#define MISH_WGMMA_F2(d, i) MISH_WGMMA_F1(d, i), MISH_WGMMA_F1(d, (i) + 1)
#define MISH_WGMMA_F4(d, i) MISH_WGMMA_F2(d, i), MISH_WGMMA_F2(d, (i) + 2)
#define MISH_WGMMA_F8(d, i) MISH_WGMMA_F4(d, i), MISH_WGMMA_F4(d, (i) + 4)
#define MISH_WGMMA_F16(d, i) MISH_WGMMA_F8(d, i), MISH_WGMMA_F8(d, (i) + 8)
#define MISH_WGMMA_F32(d, i) MISH_WGMMA_F16(d, i), MISH_WGMMA_F16(d, (i) + 16)
#define MISH_WGMMA_F64(d, i) MISH_WGMMA_F32(d, i), MISH_WGMMA_F32(d, (i) + 32)
#define MISH_WGMMA_R1(d, i) "+r"(d[i])
#define MISH_WGMMA_R2(d, i) MISH_WGMMA_R1(d, i), MISH_WGMMA_R1(d, (i) + 1)
#define MISH_WGMMA_R4(d, i) MISH_WGMMA_R2(d, i), MISH_WGMMA_R2(d, (i) + 2)
#define MISH_WGMMA_R8(d, i) MISH_WGMMA_R4(d, i), MISH_WGMMA_R4(d, (i) + 4)
#define MISH_WGMMA_R16(d, i) MISH_WGMMA_R8(d, i), MISH_WGMMA_R8(d, (i) + 8)
#define MISH_WGMMA_R32(d, i) MISH_WGMMA_R16(d, i), MISH_WGMMA_R16(d, (i) + 16)

// d (+)= A[64 x 16] * B[N x 16]^T, A and B from shared memory (descriptors); `accumulate` = 0
// starts from zero. Wgmma<N>::f32 takes N/2 fp32 accumulators a thread: element 4j+q sits at
// row (warp % 4) * 16 + lane / 4 + 8 * (q / 2), column 8j + 2 * (lane % 4) + q % 2. Wgmma<N>::f16
// takes N/4 registers of fp16 pairs holding the same elements, 4j+q in register 2j + q/2, half
// q % 2.
template <int N>
struct Wgmma;

// One member of Wgmma<N>: `name` takes COUNT accumulators of ACC_TYPE, instruction type DTYPE
// (f32 or f16), their register list's text and constraints, and the operand numbers of
// descriptor A, descriptor B and the accumulate flag (after the list).
#define MISH_WGMMA_MEMBER(N, name, ACC_TYPE, COUNT, DTYPE, TEXT, OPERANDS, A, B, ACC)          \
  __device__ static __forceinline__ void name(ACC_TYPE (&d)[COUNT], uint64_t a, uint64_t b,   \
                                              uint32_t accumulate) {                          \
    asm volatile("{\n.reg .pred acc;\nsetp.ne.b32 acc, %" ACC ", 0;\n"                         \
                 "wgmma.mma_async.sync.aligned.m64n" #N "k16." DTYPE ".f16.f16 " TEXT           \
                 ", %" A ", %" B ", acc, 1, 1, 0, 0;\n}\n"                                      \
                 : OPERANDS(d, 0)                                                             \
                 : "l"(a), "l"(b), "r"(accumulate));                                          \
  }

// One specialization: N, then per accumulator type (fp32, fp16) the register list's text and
// constraints and the operand numbers of descriptor A, descriptor B and the accumulate flag.
#define MISH_WGMMA_SHAPE(N, F32_TEXT, F32_OPERANDS, F32_A, F32_B, F32_ACC, F16_TEXT,         \
                         F16_OPERANDS, F16_A, F16_B, F16_ACC)                                \
  template <>                                                                                \
  struct Wgmma<N> {                                                                          \
    MISH_WGMMA_MEMBER(N, f32, float, N / 2, "f32", F32_TEXT, F32_OPERANDS, F32_A, F32_B,     \
                      F32_ACC)                                                               \
    MISH_WGMMA_MEMBER(N, f16, uint32_t, N / 4, "f16", F16_TEXT, F16_OPERANDS, F16_A, F16_B,  \
                      F16_ACC)                                                               \
  };

MISH_WGMMA_SHAPE(8, MISH_WGMMA_D4_TEXT, MISH_WGMMA_F4, "4", "5", "6",
                 MISH_WGMMA_D2_TEXT, MISH_WGMMA_R2, "2", "3", "4")
MISH_WGMMA_SHAPE(16, MISH_WGMMA_D8_TEXT, MISH_WGMMA_F8, "8", "9", "10",
                 MISH_WGMMA_D4_TEXT, MISH_WGMMA_R4, "4", "5", "6")
MISH_WGMMA_SHAPE(32, MISH_WGMMA_D16_TEXT, MISH_WGMMA_F16, "16", "17", "18",
                 MISH_WGMMA_D8_TEXT, MISH_WGMMA_R8, "8", "9", "10")
MISH_WGMMA_SHAPE(64, MISH_WGMMA_D32_TEXT, MISH_WGMMA_F32, "32", "33", "34",
                 MISH_WGMMA_D16_TEXT, MISH_WGMMA_R16, "16", "17", "18")
MISH_WGMMA_SHAPE(128, MISH_WGMMA_D64_TEXT, MISH_WGMMA_F64, "64", "65", "66",
                 MISH_WGMMA_D32_TEXT, MISH_WGMMA_R32, "32", "33", "34")

#undef MISH_WGMMA_SHAPE
#undef MISH_WGMMA_MEMBER
#undef MISH_WGMMA_D2_TEXT
#undef MISH_WGMMA_D4_TEXT
#undef MISH_WGMMA_D8_TEXT
#undef MISH_WGMMA_D16_TEXT
#undef MISH_WGMMA_D32_TEXT
#undef MISH_WGMMA_D64_TEXT
#undef MISH_WGMMA_F1
#undef MISH_WGMMA_F2
#undef MISH_WGMMA_F4
#undef MISH_WGMMA_F8
#undef MISH_WGMMA_F16
#undef MISH_WGMMA_F32
#undef MISH_WGMMA_F64
#undef MISH_WGMMA_R1
#undef MISH_WGMMA_R2
#undef MISH_WGMMA_R4
#undef MISH_WGMMA_R8
#undef MISH_WGMMA_R16
#undef MISH_WGMMA_R32

#endif  // sm_90a device code

}  // namespace mish
