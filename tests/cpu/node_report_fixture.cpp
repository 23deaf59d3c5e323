#include "node_report_fixture.h"

#include <fmt/format.h>

#include "report_fixture.h"
#include "reports/report/report.h"

namespace mish {

std::string synthetic_uuid(int card) {
  return fmt::format("GPU-00000000-0000-4000-8000-{:012x}", card);
}

namespace {

BackendResult timed(const std::string& backend, std::vector<double> samples) {
  BackendResult r;
  r.backend = backend;
  r.math_mode = "fp32";
  r.samples_ms = std::move(samples);
  r.stats = summarize(r.samples_ms);
  Verification v;
  v.checked = 64 * 128;
  v.max_abs = 2e-6;
  v.max_rel = 1e-6;
  r.verification = v;
  return r;
}

}  // namespace

RunOutcome node_outcome(const SyntheticNode& node) {
  RunOutcome outcome;
  outcome.host = {node.hostname, "Test CPU", 16, "Linux 6.8 x86_64"};
  ProblemRun run;
  run.problem.m = 64, run.problem.n = 128, run.problem.k = 256;
  for (size_t d = 0; d < node.fused_ms.size(); ++d) {
    DeviceRecord device;
    device.info.ordinal = static_cast<int>(d);
    device.info.name = "NVIDIA H200";
    device.info.uuid = synthetic_uuid(node.uuid_base + static_cast<int>(d));
    device.info.pci_bus_id = fmt::format("0000:{:02x}:00.0", 0x19 + 0x10 * d);
    device.info.cc_major = 9;
    device.info.sms = 132;
    device.info.l2_bytes = 60 << 20;
    device.info.memory_bytes = size_t(141) << 30;
    device.info.driver_version = device.info.runtime_version = 13000;
    device.info.cublas_version = 130100;
    device.copy_bandwidth = CopyBandwidth{256 << 20, 0.125, 4000.0};
    device.read_bandwidth = ReadBandwidth{uint64_t(1) << 30, 0.25, 4294.967296};
    device.max_sm_mhz = 1980;
    outcome.devices.push_back(device);
    BackendResult fused = timed("fused", noisy_samples(node.fused_ms[d], node.seed + d));
    fused.device = d;
    run.results.push_back(fused);
  }
  run.results.push_back(timed("cpu", noisy_samples(40.0, node.seed + 100)));
  outcome.runs.push_back(run);
  return outcome;
}

nlohmann::json node_report(const SyntheticNode& node) {
  RunConfig config;
  config.sampling.iters = 100;
  config.devices = parse_device_selection("all", "--devices");
  const nlohmann::json report =
      build_report(node_outcome(node), config, {"mishbench", "--devices", "all"});
  return nlohmann::json::parse(report.dump());
}

}  // namespace mish
