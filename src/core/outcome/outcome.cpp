#include "core/outcome/outcome.h"

#include <fmt/format.h>

#include "base/common/untrusted_text.h"

namespace mish {

std::string process_label(const OtherProcess& process) {
  return fmt::format("pid {} ({})", process.pid,
                     process.name.empty() ? "name not visible" : for_terminal(process.name));
}

std::string to_string(Placement placement) {
  return placement == Placement::host ? "host" : "device";
}

std::string to_string(Accuracy accuracy) {
  return accuracy == Accuracy::fp32 ? "fp32" : "reduced";
}

std::string to_string(Status status) {
  switch (status) {
    case Status::ok: return "ok";
    case Status::mismatch: return "mismatch";
    case Status::skipped: return "skipped";
    case Status::error: return "error";
    case Status::implausible: return "implausible";
  }
  return "unknown";
}

bool fails_the_run(const BackendResult& r) {
  return r.status == Status::error || r.status == Status::implausible ||
         (r.status == Status::mismatch && r.expected_accuracy == Accuracy::fp32);
}

bool RunOutcome::any_failure() const {
  for (const ProblemRun& run : runs)
    for (const BackendResult& r : run.results)
      if (fails_the_run(r)) return true;
  return false;
}

const DeviceRecord* RunOutcome::device_of(const BackendResult& result) const {
  if (result.device) return &devices.at(*result.device);
  return devices.empty() ? nullptr : &devices.front();
}

}  // namespace mish
