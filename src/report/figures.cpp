#include "report/figures.h"

namespace mish {

double tflops_at(const Problem& p, double median_ms) {
  return median_ms > 0 ? p.flops() / (median_ms * 1e-3) / 1e12 : 0.0;
}

bool expected_mismatch(const BackendResult& r) {
  return r.status == Status::mismatch && r.expected_accuracy == Accuracy::reduced;
}

double tflops(const Problem& p, const BackendResult& r) {
  return r.stats.count > 0 ? tflops_at(p, r.stats.median) : 0.0;
}

double stage_gb_per_s(const StageResult& stage) {
  return stage.timing.stats.median > 0 ? stage.bytes / (stage.timing.stats.median * 1e-3) / 1e9 : 0.0;
}

double speedup_vs_separate(const ProblemRun& run, const BackendResult& result) {
  for (const BackendResult& other : run.results)
    if (other.backend == "separate" && other.stats.count > 0 && result.stats.count > 0)
      return other.stats.median / result.stats.median;
  return 0.0;
}

}  // namespace mish
