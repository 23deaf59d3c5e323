// Datasheet peak throughput per device and math mode, for roofline fractions in the report.
//
// Dense (no structured sparsity) TFLOP/s at boost clock, from NVIDIA's datasheets:
//   device (CUDA name)            fp32   tf32   fp16/bf16   highest (fp8 / int8)
//   NVIDIA H200 (SXM)             67     495    990         1979
//   NVIDIA H100 80GB HBM3 (SXM)   67     495    990         1979
//   NVIDIA A100-SXM4-80GB/-40GB   19.5   156    312         624
// Math modes map onto those units: "fp32" -> fp32 CUDA cores; "tf32" and "3xtf32" -> tf32 tensor
// cores; "fp16", "bf16" and "fp16x3" -> fp16/bf16 tensor cores. Split-precision modes do several
// tensor-core products per output, but the fraction counts the problem's 2*M*N*K flops, so it
// reads "how close to the hardware's rate for one pass", not hardware utilization.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace mish {

struct PeakLookup {
  std::optional<double> tflops;  // the peak; empty when unknown
  std::string unit;              // "fp32", "tf32" or "fp16" (the table column)
  std::string note;              // why unknown, when it is
};

PeakLookup peak_tflops(const std::string& device_name, std::string_view math_mode);

// Tensor-core (or CUDA-core) passes a math mode makes over the problem's 2*M*N*K flops: 3 for
// the split-precision modes (fp16x3, 3xtf32), 1 otherwise. Its compute floor is
// passes * 2*M*N*K / peak.
int math_mode_passes(std::string_view math_mode);

// The device's highest dense tensor-core rate in any math mode (fp8 or int8 where it has them):
// no implementation of the layer computes faster. Empty for a device not in the table.
std::optional<double> highest_dense_tflops(const std::string& device_name);

}  // namespace mish
