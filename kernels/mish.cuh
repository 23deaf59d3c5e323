// Mish in fp32, shared by every kernel and by the host (CPU backend, tests).
//
// PyTorch defines mish(x) = x * tanh(softplus(x)) = x * tanh(log1p(exp(x))). With n = e^x,
// tanh(log1p(n)) = ((1+n)^2 - 1) / ((1+n)^2 + 1) = n(n+2) / (n(n+2) + 2), which needs one exp and
// one division and has no cancellation: n(n+2) > 0 for every finite x. For x > 20 the factor is 1
// in fp32 (it already rounds to 1 from x ~ 9), and n(n+2) would overflow from x ~ 44, so we return x;
// the exponent is clamped at 20 instead of branched around, so the function is straight-line code
// and the compiler can interleave independent elements. tanh.approx (2^-11 relative error) is never
// used.
#pragma once
#include <cmath>

#include "host_device.cuh"

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

MISH_HD float mish(float x) {
  const float n = expf(fminf(x, 20.0f));
  const float factor = mish_factor(n * (n + 2.0f));
  return x > 20.0f ? x : x * factor;
}

}  // namespace mish
