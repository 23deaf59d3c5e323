#include "core/timing/peaks.h"

#include <fmt/format.h>

namespace mish {
namespace {

struct DevicePeaks {
  const char* name;  // exactly as cudaGetDeviceProperties reports it
  double fp32, tf32, fp16;
  double highest;  // fp8 or int8, the fastest dense mode
};

constexpr DevicePeaks kPeaks[] = {
    {"NVIDIA H200", 67.0, 495.0, 990.0, 1979.0},
    {"NVIDIA H100 80GB HBM3", 67.0, 495.0, 990.0, 1979.0},
    {"NVIDIA A100-SXM4-80GB", 19.5, 156.0, 312.0, 624.0},
    {"NVIDIA A100-SXM4-40GB", 19.5, 156.0, 312.0, 624.0},
};

// The table column a math mode runs at; empty for unknown modes.
std::string unit_of(std::string_view math_mode) {
  if (math_mode == "fp32") return "fp32";
  if (math_mode == "tf32" || math_mode == "3xtf32") return "tf32";
  if (math_mode == "fp16" || math_mode == "bf16" || math_mode == "fp16x3") return "fp16";
  return "";
}

}  // namespace

PeakLookup peak_tflops(const std::string& device_name, std::string_view math_mode) {
  PeakLookup lookup;
  lookup.unit = unit_of(math_mode);
  if (lookup.unit.empty()) {
    lookup.note = fmt::format("no peak for math mode '{}'", math_mode);
    return lookup;
  }
  for (const DevicePeaks& peaks : kPeaks) {
    if (device_name != peaks.name) continue;
    lookup.tflops = lookup.unit == "fp32" ? peaks.fp32 : lookup.unit == "tf32" ? peaks.tf32 : peaks.fp16;
    return lookup;
  }
  lookup.note = fmt::format("device '{}' is not in the peak table (src/core/timing/peaks.h)", device_name);
  return lookup;
}

std::optional<double> highest_dense_tflops(const std::string& device_name) {
  for (const DevicePeaks& peaks : kPeaks)
    if (device_name == peaks.name) return peaks.highest;
  return std::nullopt;
}

int math_mode_passes(std::string_view math_mode) {
  return math_mode == "fp16x3" || math_mode == "3xtf32" ? 3 : 1;
}

}  // namespace mish
