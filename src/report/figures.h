// The figures the report and the console table derive from results: TFLOP/s, GB/s of epilogue
// stages, speedup over `separate`, expected mismatches.
#pragma once
#include "outcome/outcome.h"

namespace mish {

// 2 m n k / median, in TFLOP/s; 0 for no median.
double tflops_at(const Problem& p, double median_ms);
// The result's plain-launch TFLOP/s; 0 if untimed.
double tflops(const Problem& p, const BackendResult& r);
// Achieved GB/s of an epilogue stage from the least bytes it must move.
double stage_gb_per_s(const StageResult& stage);
// A mismatch the backend's accuracy class predicts (reduced precision).
bool expected_mismatch(const BackendResult& r);
// median_ms of `separate` on the same problem divided by this result's median; 0 if unknown.
double speedup_vs_separate(const ProblemRun& run, const BackendResult& result);

}  // namespace mish
