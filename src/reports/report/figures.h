// The figures the report and the console table derive from results: TFLOP/s, GB/s of epilogue
// stages, speedup over `separate`, expected mismatches.
#pragma once
#include "core/outcome/outcome.h"

namespace mish {

// 2 m n k / median, in TFLOP/s; 0 for no median.
double tflops_at(const Problem& p, double median_ms);
// The result's plain-launch TFLOP/s; 0 if untimed.
double tflops(const Problem& p, const BackendResult& r);
// Achieved GB/s of an epilogue stage from the least bytes it must move.
double stage_gb_per_s(const StageResult& stage);
// A mismatch the backend's accuracy class predicts (reduced precision).
bool expected_mismatch(const BackendResult& r);
// The least bytes the layer must move: x, W and b read once, y written once (fp32).
double layer_bytes(const Problem& p);

// The problem's floors on a device: the memory floor (layer_bytes at the device's measured read
// bandwidth) and, for `math_mode`, the compute floor (its passes over 2*M*N*K at the peak of
// core/timing/peaks.h); each empty when unknown, both without a device.
struct Floors {
  std::optional<double> memory_ms;
  std::optional<double> compute_ms;
  // The larger of the two (the roofline bound), and which one it is ("memory", "compute").
  std::optional<double> floor_ms() const;
  std::string bound() const;
};
Floors floors_of(const Problem& p, const std::string& math_mode, const DeviceRecord* device);

// median_ms of `separate` on the same problem and device (for a host backend: the first
// `separate` of the run, on its first device) divided by this result's median; 0 if unknown.
double speedup_vs_separate(const ProblemRun& run, const BackendResult& result);

}  // namespace mish
