// Mish in fp32, shared by every kernel and by the host (CPU backend, tests).
//
// PyTorch defines mish(x) = x * tanh(softplus(x)) = x * tanh(log1p(exp(x))). With n = e^x,
// tanh(log1p(n)) = ((1+n)^2 - 1) / ((1+n)^2 + 1) = n(n+2) / (n(n+2) + 2), which needs one exp and
// one division and has no cancellation: n(n+2) > 0 for every finite x. For x > 20 the factor is 1
// in fp32 (it already rounds to 1 from x ~ 9), and n(n+2) would overflow from x ~ 44, so we return x.
// tanh.approx (2^-11 relative error) is never used.
#pragma once
#include <cmath>

#include "host_device.cuh"

namespace mish {

MISH_HD float mish(float x) {
  if (x > 20.0f) return x;
  const float n = expf(x);
  const float p = n * (n + 2.0f);
  return x * (p / (p + 2.0f));
}

}  // namespace mish
