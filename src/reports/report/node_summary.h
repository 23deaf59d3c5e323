// The node summary: for each backend and problem timed on two or more devices, the node median
// (the median of the device medians) and each device's ratio to it. A device whose median's 95%
// confidence interval lies wholly beyond the band around the node median (more than kNodeBand
// slower or faster, beyond what its own noise allows) is flagged, with the throttling seen in its
// samples beside it. Rules in docs/report-schema.md#node_summary.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/outcome/outcome.h"

namespace mish {

constexpr double kNodeBand = 0.05;

// One backend's timing on one problem on one device.
struct DeviceTiming {
  std::string backend;
  size_t problem = 0;  // the problem's index in the run
  size_t device = 0;   // the device's index in the run
  double median_ms = 0, ci_low_ms = 0, ci_high_ms = 0;
  int samples = 0;
  int throttled_samples = 0;
  std::vector<std::string> throttle_reasons;  // "sw_power_cap", ...
};

enum class Deviation { none, slow, fast };
std::string to_string(Deviation deviation);  // "", "slow", "fast"

struct DeviceStanding {
  DeviceTiming timing;
  double ratio = 1.0;  // median / node median
  Deviation deviation = Deviation::none;
};

struct NodeSummaryRow {
  std::string backend;
  size_t problem = 0;
  double node_median_ms = 0;
  std::vector<DeviceStanding> devices;  // in the order of the run's devices
  bool flagged() const;                 // a device is outside the band
};

// Rows in the order of the problems, then of each backend's first timing; backends timed on
// fewer than two devices of a problem have none.
std::vector<NodeSummaryRow> summarize_node(const std::vector<DeviceTiming>& timings,
                                           double band = kNodeBand);

// Every timed result of `outcome` that ran on a device.
std::vector<DeviceTiming> device_timings(const RunOutcome& outcome);

}  // namespace mish
