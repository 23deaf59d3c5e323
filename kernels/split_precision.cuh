// Splitting fp32 values into pairs of lower-precision values whose sum restores (almost) all of
// the fp32 significand, so that tensor cores can do FP32-accurate products in several passes:
//   a*b ~= a_hi*b_hi + a_hi*b_lo + a_lo*b_hi   (the a_lo*b_lo term is below fp32 rounding).
// Host and device share these functions, so the host tests check the very code the kernels run.
//
// TF32 (10 explicit mantissa bits): hi = v rounded to nearest-even TF32, lo = v - hi (exact in
// fp32; tensor cores read its top 10 bits). hi + lo_tf32 keeps ~21-22 bits.
// FP16 (10 explicit bits, exponent range 2^-24..2^15): a row is first scaled by a power of two so
// its largest magnitude sits in [2^13, 2^14) (exact), then hi = fp16(v), lo = fp16(v - hi).
// The scale keeps hi and lo inside fp16's range; it is undone after the product, also exactly.
#pragma once
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "base/cuda/host_device.cuh"

namespace mish {

MISH_HD uint32_t float_bits(float v) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(v);
#else
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits;
#endif
}

MISH_HD float bits_float(uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float v;
  std::memcpy(&v, &bits, sizeof(v));
  return v;
#endif
}

// Round to the nearest TF32 value (ties to even), returned as an fp32 whose low 13 bits are zero.
// Integer arithmetic, so host and device agree bit for bit. Finite inputs only.
MISH_HD float round_to_tf32(float v) {
  uint32_t bits = float_bits(v);
  bits += 0xfffu + ((bits >> 13) & 1u);
  return bits_float(bits & ~0x1fffu);
}

struct Tf32Split {
  float hi;  // exactly representable in TF32
  float lo;  // v - hi, exact in fp32
};

MISH_HD Tf32Split split_tf32(float v) {
  const float hi = round_to_tf32(v);
  return {hi, v - hi};
}

// The largest magnitude of a scaled row lands in [2^13, 2^14): hi stays below fp16's 65504 and the
// sum of hi and lo keeps ~22 significant bits for values within a few binades of the row maximum.
constexpr int kFp16RowTopExponent = 13;
constexpr int kMaxScaleExponent = 120;  // keeps 2^e and 2^-e finite, normal fp32

// Exponent e such that max_abs * 2^e lies in [2^top, 2^(top+1)), by default [2^13, 2^14); 0 for an
// all-zero row (no NaN).
MISH_HD int fp16_row_scale_exponent(float max_abs, int top_exponent = kFp16RowTopExponent) {
  if (!(max_abs > 0.0f) || max_abs > 3.4e38f) return 0;  // zero, NaN or Inf
  int e = top_exponent - ilogbf(max_abs);
  if (e > kMaxScaleExponent) e = kMaxScaleExponent;
  if (e < -kMaxScaleExponent) e = -kMaxScaleExponent;
  return e;
}

struct HalfSplit {
  __half hi;
  __half lo;
};

// `scaled` is a value already multiplied by its row's 2^e.
MISH_HD HalfSplit split_fp16(float scaled) {
  const __half hi = __float2half_rn(scaled);
  const __half lo = __float2half_rn(scaled - __half2float(hi));
  return {hi, lo};
}

}  // namespace mish
