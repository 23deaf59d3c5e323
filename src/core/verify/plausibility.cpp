#include "core/verify/plausibility.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/timing/peaks.h"

namespace mish {

double PhysicalFloor::floor_ms() const { return std::max(memory_ms, compute_ms.value_or(0.0)); }

std::string PhysicalFloor::describe() const {
  if (compute_ms && *compute_ms >= memory_ms)
    return fmt::format("{:.4f} ms: compute, {:.1f} GFLOP at the device's highest dense rate of "
                       "{:g} TFLOP/s",
                       floor_ms(), flops / 1e9, *peak_tflops);
  return fmt::format("{:.4f} ms: memory, {:.1f} MB that must move at the measured read bandwidth",
                     floor_ms(), bytes / 1e6);
}

PhysicalFloor physical_floor(const Problem& p, const std::string& device_name,
                             double read_gb_per_s, uint64_t l2_bytes, bool l2_hot) {
  PhysicalFloor floor;
  double bytes = 4.0 * (double(p.x_count()) + double(p.y_count()) + double(p.n)) +
                 double(p.w_count());
  if (l2_hot) bytes = std::max(0.0, bytes - double(l2_bytes));
  floor.bytes = bytes;
  floor.flops = p.flops();
  if (read_gb_per_s > 0) floor.memory_ms = bytes / (read_gb_per_s * 1e9) * 1e3;
  floor.peak_tflops = highest_dense_tflops(device_name);
  if (floor.peak_tflops) floor.compute_ms = p.flops() / (*floor.peak_tflops * 1e12) * 1e3;
  return floor;
}

}  // namespace mish
