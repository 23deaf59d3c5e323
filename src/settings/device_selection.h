// Which CUDA devices a run uses (--devices): device 0 by default, a comma list of CUDA device
// indices in the order they run, or every visible device. The text is checked strictly when it is
// given; the indices are checked against the machine when the run opens its devices.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mish {

// No machine has more devices than this; a larger index is a typo, whatever the machine.
constexpr int64_t kMaxDeviceIndex = 1023;

struct DeviceSelection {
  bool all = false;             // every visible device, in index order
  std::vector<int> indices{0};  // in the order given; unused when `all`
};

// "all" alone, or decimal indices separated by commas ("0", "0,2,3"), each at most once.
// Throws UsageError naming `where` (the flag or the config key) and quoting the text.
DeviceSelection parse_device_selection(std::string_view text, const std::string& where);

// The same checks for indices given as numbers (a config file's array).
DeviceSelection device_selection_from(const std::vector<int64_t>& indices,
                                      const std::string& where);

// "all", "0", "0,2": the selection as the report's settings show it.
std::string to_string(const DeviceSelection& selection);

// The CUDA device indices to use on a machine with `visible` devices (at least one). Throws
// UsageError, naming the device count, for an index that does not exist there.
std::vector<int> resolve_devices(const DeviceSelection& selection, int visible);

}  // namespace mish
