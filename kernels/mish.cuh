// Mish in fp32, shared by every kernel and by the host (CPU backend, tests).
//
// PyTorch defines mish(x) = x * tanh(softplus(x)) = x * tanh(log1p(exp(x))). With n = e^x,
// tanh(log1p(n)) = ((1+n)^2 - 1) / ((1+n)^2 + 1) = n(n+2) / (n(n+2) + 2), which needs one exp and
// one division and has no cancellation: n(n+2) > 0 for every finite x. n(n+2) would overflow from
// x ~ 44, so the exponent is clamped at 20, where the factor is exactly 1 in fp32 (it already
// rounds to 1 from x ~ 9; the device quotient below also gives exactly 1 there), and at -110,
// below which e^x is 0 in fp32 anyway: mish(x) = x * factor for every x, straight-line code the
// compiler can interleave across independent elements.
// tanh.approx (2^-11 relative error) is never used.
#pragma once
#include <cmath>

#include "base/cuda/host_device.cuh"

namespace mish {

// p / (p + 2) for p = n(n+2) >= 0. The denominator lies in [2, 2^58], far from fp32's special
// cases, so on the device an approximate reciprocal (rcp.approx, within 1 ulp) plus one Newton
// correction of the quotient gives p / d within 1 ulp, branch-free, where IEEE division would add
// a special-case check and branch per element. The host divides exactly.
MISH_HD float mish_factor(float p) {
  const float d = p + 2.0f;
#if defined(__CUDA_ARCH__)
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d));
  const float q = p * r;
  return fmaf(fmaf(-d, q, p), r, q);
#else
  return p / d;
#endif
}

// e^t for t in [-110, 20]: on the device 2^(t log2 e) in one ex2.approx (2 ulp). Rounding the
// product to fp32 adds a relative error of up to |t| 2^-24, so e^t is within 2 + |t| ulp. That
// matters only where it shows, for t << 0, and there Mish is x e^x, tiny (|mish(x)| < 1e-10 for
// x < -25); for t > 0 the factor n(n+2) / (n(n+2) + 2) damps it away. Two multiplications against
// expf's ten instructions, on the layer's critical path twice per output. Results below fp32's
// smallest normal (t < -87) flush to zero.
MISH_HD float mish_exp(float t) {
#if defined(__CUDA_ARCH__)
  constexpr float kLog2e = 1.44269502f;
  float power;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(power) : "f"(t * kLog2e));
  return power;
#else
  return expf(t);
#endif
}

MISH_HD float mish(float x) {
  const float n = mish_exp(fminf(fmaxf(x, -110.0f), 20.0f));
  return x * mish_factor(n * (n + 2.0f));
}

}  // namespace mish
