#include "reports/report/node_summary.h"

#include <algorithm>
#include <map>
#include <utility>

#include "core/timing/statistics.h"

namespace mish {

std::string to_string(Deviation deviation) {
  switch (deviation) {
    case Deviation::slow: return "slow";
    case Deviation::fast: return "fast";
    case Deviation::none: break;
  }
  return "";
}

bool NodeSummaryRow::flagged() const {
  return std::any_of(devices.begin(), devices.end(),
                     [](const DeviceStanding& d) { return d.deviation != Deviation::none; });
}

std::vector<NodeSummaryRow> summarize_node(const std::vector<DeviceTiming>& timings, double band) {
  // Grouped by (problem, backend), the groups in the order the rows come out.
  std::vector<std::pair<size_t, std::string>> order;
  std::map<std::pair<size_t, std::string>, std::vector<const DeviceTiming*>> groups;
  for (const DeviceTiming& t : timings) {
    const auto key = std::make_pair(t.problem, t.backend);
    auto [group, fresh] = groups.try_emplace(key);
    if (fresh) order.push_back(key);
    group->second.push_back(&t);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  std::vector<NodeSummaryRow> rows;
  for (const auto& key : order) {
    std::vector<const DeviceTiming*> group = groups.at(key);
    if (group.size() < 2) continue;
    std::stable_sort(group.begin(), group.end(), [](const DeviceTiming* a, const DeviceTiming* b) {
      return a->device < b->device;
    });
    std::vector<double> medians;
    for (const DeviceTiming* t : group) medians.push_back(t->median_ms);
    NodeSummaryRow row;
    row.problem = key.first;
    row.backend = key.second;
    row.node_median_ms = median(medians);
    const double slow_edge = row.node_median_ms * (1.0 + band);
    const double fast_edge = row.node_median_ms * (1.0 - band);
    for (const DeviceTiming* t : group) {
      DeviceStanding standing;
      standing.timing = *t;
      standing.ratio = row.node_median_ms > 0 ? t->median_ms / row.node_median_ms : 1.0;
      if (t->ci_low_ms > slow_edge)
        standing.deviation = Deviation::slow;
      else if (t->ci_high_ms < fast_edge)
        standing.deviation = Deviation::fast;
      row.devices.push_back(std::move(standing));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<DeviceTiming> device_timings(const RunOutcome& outcome) {
  std::vector<DeviceTiming> timings;
  for (size_t p = 0; p < outcome.runs.size(); ++p)
    for (const BackendResult& r : outcome.runs[p].results) {
      if (!r.device || r.stats.count == 0) continue;
      DeviceTiming t;
      t.backend = r.backend;
      t.problem = p;
      t.device = *r.device;
      t.median_ms = r.stats.median;
      t.ci_low_ms = r.stats.ci_low;
      t.ci_high_ms = r.stats.ci_high;
      t.samples = r.stats.count;
      if (r.clocks) {
        t.throttled_samples = static_cast<int>(r.clocks->throttled_samples.size());
        t.throttle_reasons = throttle_reason_names(r.clocks->reasons_seen);
      }
      timings.push_back(std::move(t));
    }
  return timings;
}

}  // namespace mish
