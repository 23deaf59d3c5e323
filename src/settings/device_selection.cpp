#include "settings/device_selection.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/common/comma_list.h"
#include "base/common/decimal.h"
#include "base/common/errors.h"
#include "base/common/untrusted_text.h"

namespace mish {
namespace {

constexpr const char* kExpected = "give 'all' or device indices separated by commas, e.g. 0,2";

std::string count_text(int visible) {
  return visible == 1 ? "1 CUDA device (index 0)"
                      : fmt::format("{} CUDA devices (indices 0 to {})", visible, visible - 1);
}

}  // namespace

DeviceSelection device_selection_from(const std::vector<int64_t>& indices,
                                      const std::string& where) {
  if (indices.empty()) throw UsageError(fmt::format("{} is empty; {}", where, kExpected));
  DeviceSelection selection;
  selection.indices.clear();
  for (const int64_t index : indices) {
    if (index < 0 || index > kMaxDeviceIndex)
      throw UsageError(fmt::format("{}: device index {} is out of range; expected 0 to {}", where,
                                   index, kMaxDeviceIndex));
    const int device = static_cast<int>(index);
    if (std::find(selection.indices.begin(), selection.indices.end(), device) !=
        selection.indices.end())
      throw UsageError(
          fmt::format("{} lists device {} twice; give each device once", where, device));
    selection.indices.push_back(device);
  }
  return selection;
}

DeviceSelection parse_device_selection(std::string_view text, const std::string& where) {
  if (text == "all") {
    DeviceSelection selection;
    selection.all = true;
    selection.indices.clear();
    return selection;
  }
  std::vector<int64_t> indices;
  for (const std::string_view part : split_at_commas(text)) {
    if (part == "all")
      throw UsageError(
          fmt::format("{} '{}': 'all' stands alone; it cannot be combined with "
                      "indices",
                      where, for_terminal(text)));
    if (part.empty())
      throw UsageError(
          fmt::format("{} '{}' has an empty entry; {}", where, for_terminal(text), kExpected));
    indices.push_back(parse_int(part, where, 0, kMaxDeviceIndex));
  }
  return device_selection_from(indices, where);
}

std::string to_string(const DeviceSelection& selection) {
  if (selection.all) return "all";
  return fmt::format("{}", fmt::join(selection.indices, ","));
}

std::vector<int> resolve_devices(const DeviceSelection& selection, int visible) {
  if (selection.all) {
    std::vector<int> every(static_cast<size_t>(std::max(visible, 0)));
    for (int i = 0; i < visible; ++i) every[static_cast<size_t>(i)] = i;
    return every;
  }
  for (const int index : selection.indices)
    if (index >= visible)
      throw UsageError(fmt::format("--devices: there is no CUDA device {}; this machine has {}",
                                   index, count_text(visible)));
  return selection.indices;
}

}  // namespace mish
