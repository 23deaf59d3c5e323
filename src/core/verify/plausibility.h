// The physical floor of the layer on a device: no honest implementation, in any math mode, runs
// faster. A median below it by more than kImplausibleMargin is a failure, `implausible`: the
// work was not done while it was timed (reference-kernels' and KernelGuard's roofline rule).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/problem/problem.h"

namespace mish {

// A median under this share of the floor is implausible; the slack covers the datasheet peak
// being a boost-clock figure and the measured read bandwidth a single probe's.
constexpr double kImplausibleMargin = 0.8;

struct PhysicalFloor {
  double memory_ms = 0;               // bytes that must move / measured read bandwidth
  std::optional<double> compute_ms;   // FLOPs / the device's highest dense tensor peak
  double bytes = 0;
  double flops = 0;
  std::optional<double> peak_tflops;
  double floor_ms() const;
  std::string describe() const;       // "0.0694 ms: compute, 137.4 GFLOP at ... 1979 TFLOP/s"
};

// The bytes that must move: x read once and y written once in fp32 (x is fresh for every call,
// y is fp32), W once at one byte per element (the narrowest dense tensor-core format) and b.
// With a hot L2, as much of that as the L2 holds is free. `read_gb_per_s` as measured.
PhysicalFloor physical_floor(const Problem& problem, const std::string& device_name,
                             double read_gb_per_s, uint64_t l2_bytes, bool l2_hot);

}  // namespace mish
