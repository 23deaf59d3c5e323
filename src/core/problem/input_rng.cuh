// Counter-based input generation shared by host and device.
//
// Every input element is a pure function of (seed, tensor, index): splitmix64 keyed by the seed and
// the tensor, evaluated at the element's index. Only integer arithmetic and exactly rounded float
// operations (explicit fmaf, power-of-two scaling) are used, so the CPU and the GPU produce
// bit-identical inputs on any machine, in any order, with any number of threads.
#pragma once
#include <cstdint>
#include <cmath>

#include "base/cuda/host_device.cuh"
#include "core/problem/distribution.h"

namespace mish {

enum class Tensor : uint32_t { x = 1, w = 2, b = 3 };

MISH_HD uint64_t splitmix64_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

MISH_HD uint64_t random_bits(uint64_t seed, Tensor tensor, uint64_t index) {
  constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;
  const uint64_t key = splitmix64_mix(seed * kGolden + static_cast<uint64_t>(tensor));
  return splitmix64_mix(key + (index + 1) * kGolden);
}

// Uniform on [0, 1) with 24 random bits: exact in fp32.
MISH_HD float uniform01(uint64_t bits) { return static_cast<float>(bits >> 40) * 0x1.0p-24f; }

// Uniform on [-bound, bound): one correctly rounded fma.
MISH_HD float uniform_symmetric(uint64_t bits, float bound) {
  return fmaf(uniform01(bits), 2.0f * bound, -bound);
}

// Approximately N(0,1): the sum of 12 uniform 16-bit draws, centred (Irwin-Hall). Integer arithmetic
// then one exact scaling, so it is reproducible everywhere; tails end at +-6.
MISH_HD float standard_normal(uint64_t seed, Tensor tensor, uint64_t index) {
  int32_t sum = 0;
  for (uint64_t part = 0; part < 3; ++part) {
    const uint64_t bits = random_bits(seed, tensor, index * 3 + part);
    for (int lane = 0; lane < 4; ++lane) sum += static_cast<int32_t>((bits >> (16 * lane)) & 0xffff);
  }
  return static_cast<float>(sum - 393210) * 0x1.0p-16f;  // 393210 = 12 * 65535 / 2
}

// Signed value 2^e * (1 + u) with e in [-14, 0], or exactly zero with probability 1/32.
MISH_HD float wide_range(uint64_t bits) {
  if ((bits & 31) == 0) return 0.0f;
  const float sign = (bits >> 5) & 1 ? -1.0f : 1.0f;
  const int exponent = -static_cast<int>((bits >> 6) % 15);
  return sign * ldexpf(1.0f + uniform01(bits), exponent) * 0.5f;
}

constexpr int64_t kWideZeroRowPeriod = 64;

// One element of x (row-major [M,K]), W (row-major [N,K]) or b ([N]).
// `bound` is float(1/sqrt(K)), computed once on the host so both sides use the same value.
MISH_HD float input_value(Distribution dist, uint64_t seed, Tensor tensor, uint64_t index,
                          uint64_t row_length, float bound) {
  const uint64_t bits = random_bits(seed, tensor, index);
  switch (dist) {
    case Distribution::kernelbench:
      return tensor == Tensor::x ? uniform01(bits) : uniform_symmetric(bits, bound);
    case Distribution::normal:
      return tensor == Tensor::x ? standard_normal(seed, tensor, index)
                                 : uniform_symmetric(bits, bound);
    case Distribution::normal_unit:
      return tensor == Tensor::b ? uniform_symmetric(bits, bound)
                                 : standard_normal(seed, tensor, index);
    case Distribution::wide: {
      if (tensor == Tensor::b) return uniform_symmetric(bits, bound);
      if ((index / row_length) % kWideZeroRowPeriod == 1) return 0.0f;
      const float value = wide_range(bits);
      return tensor == Tensor::w ? value * bound : value;
    }
  }
  return 0.0f;
}

}  // namespace mish
