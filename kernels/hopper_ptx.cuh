// Thin wrappers over the Hopper (sm_90a) PTX the fused kernels use: shared-memory addresses,
// mbarriers, TMA tile loads (cp.async.bulk.tensor), wgmma descriptors, fences, groups and the
// wgmma shapes (fp32 and fp16 accumulators, A from shared memory or registers). Each is one
// instruction or a fixed sequence; the PTX ISA is the reference for their semantics. Compiled
// only for sm_90a device code.
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

__device__ __forceinline__ void mbarrier_wait(uint64_t* bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n"
        ".reg .pred ready;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 ready, [%1], %2;\n"
        "selp.u32 %0, 1, 0, ready;\n"
        "}\n"
        : "=r"(done)
        : "r"(smem_address(bar)), "r"(parity)
        : "memory");
  } while (done == 0);
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

// The accumulator operands of the wgmma wrappers below: the asm text of the register list and the
// constraint list, for 64 fp32 accumulators (operands %0-%63) or 32 fp16 pairs (%0-%31).
#define MISH_WGMMA_D64_TEXT \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63" \
  "}"
#define MISH_WGMMA_D64_OPERANDS(d) \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), \
  "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), \
  "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), \
  "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), \
  "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), \
  "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), \
  "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), \
  "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define MISH_WGMMA_D32_TEXT \
  "{" \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31" \
  "}"
#define MISH_WGMMA_D32_OPERANDS(d) \
  "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), \
  "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), \
  "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), \
  "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), \
  "+r"(d[29]), "+r"(d[30]), "+r"(d[31])

// d (+)= A[64 x 16] * B[128 x 16]^T, A and B from shared memory (descriptors); `accumulate` = 0
// starts from zero.
__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], uint64_t a, uint64_t b,
                                                 uint32_t accumulate) {
  asm volatile(
      "{\n"
      ".reg .pred acc;\n"
      "setp.ne.b32 acc, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " MISH_WGMMA_D64_TEXT
      ", %64, %65, acc, 1, 1, 0, 0;\n"
      "}\n"
      : MISH_WGMMA_D64_OPERANDS(d)
      : "l"(a), "l"(b), "r"(accumulate));
}

// The same with A from registers: the warpgroup's 64 x 16 fp16 fragment, four registers a thread
// (warp w holds rows 16w .. 16w + 15; lane (g, t) holds, two halves a register, (row, k) =
// (g, 2t..2t+1), (g + 8, 2t..2t+1), (g, 2t+8..2t+9), (g + 8, 2t+8..2t+9) of them).
__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], const uint32_t (&a)[4],
                                                 uint64_t b, uint32_t accumulate) {
  asm volatile(
      "{\n"
      ".reg .pred acc;\n"
      "setp.ne.b32 acc, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " MISH_WGMMA_D64_TEXT
      ", {%64, %65, %66, %67}, %68, acc, 1, 1, 0;\n"
      "}\n"
      : MISH_WGMMA_D64_OPERANDS(d)
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(accumulate));
}

// d (+)= A[64 x 16] * B[128 x 16]^T with fp16 accumulators: 32 registers, each two adjacent
// columns of the fp32 layout above (element 4j+q sits in register 2j + q/2, half q%2).
__device__ __forceinline__ void wgmma_m64n128k16_f16(uint32_t (&d)[32], uint64_t a, uint64_t b,
                                                     uint32_t accumulate) {
  asm volatile(
      "{\n"
      ".reg .pred acc;\n"
      "setp.ne.b32 acc, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f16.f16.f16 " MISH_WGMMA_D32_TEXT
      ", %32, %33, acc, 1, 1, 0, 0;\n"
      "}\n"
      : MISH_WGMMA_D32_OPERANDS(d)
      : "l"(a), "l"(b), "r"(accumulate));
}

// The same with A from registers (the fragment as above).
__device__ __forceinline__ void wgmma_m64n128k16_f16(uint32_t (&d)[32], const uint32_t (&a)[4],
                                                     uint64_t b, uint32_t accumulate) {
  asm volatile(
      "{\n"
      ".reg .pred acc;\n"
      "setp.ne.b32 acc, %37, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f16.f16.f16 " MISH_WGMMA_D32_TEXT
      ", {%32, %33, %34, %35}, %36, acc, 1, 1, 0;\n"
      "}\n"
      : MISH_WGMMA_D32_OPERANDS(d)
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(accumulate));
}

#undef MISH_WGMMA_D64_TEXT
#undef MISH_WGMMA_D64_OPERANDS
#undef MISH_WGMMA_D32_TEXT
#undef MISH_WGMMA_D32_OPERANDS

#endif  // sm_90a device code

}  // namespace mish
