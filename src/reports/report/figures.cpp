#include "reports/report/figures.h"

#include <algorithm>

#include "core/timing/peaks.h"

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

double layer_bytes(const Problem& p) {
  return 4.0 * (double(p.x_count()) + double(p.w_count()) + double(p.n) + double(p.y_count()));
}

std::optional<double> Floors::floor_ms() const {
  if (memory_ms && compute_ms) return std::max(*memory_ms, *compute_ms);
  return memory_ms ? memory_ms : compute_ms;
}

std::string Floors::bound() const {
  if (memory_ms && compute_ms) return *memory_ms >= *compute_ms ? "memory" : "compute";
  return memory_ms ? "memory" : compute_ms ? "compute" : "";
}

Floors floors_of(const Problem& p, const std::string& math_mode, const DeviceRecord* device) {
  Floors floors;
  if (device == nullptr) return floors;
  if (device->read_bandwidth && device->read_bandwidth->gb_per_s > 0)
    floors.memory_ms = layer_bytes(p) / (device->read_bandwidth->gb_per_s * 1e9) * 1e3;
  const PeakLookup peak = peak_tflops(device->info.name, math_mode);
  if (peak.tflops)
    floors.compute_ms = math_mode_passes(math_mode) * p.flops() / (*peak.tflops * 1e12) * 1e3;
  return floors;
}

double speedup_vs_separate(const ProblemRun& run, const BackendResult& result) {
  for (const BackendResult& other : run.results)
    if (other.backend == "separate" && other.stats.count > 0 && result.stats.count > 0 &&
        (!result.device || other.device == result.device))
      return other.stats.median / result.stats.median;
  return 0.0;
}

}  // namespace mish
