#include "exec/executor/device_context.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/common/errors.h"
#include "base/cuda/cuda_check.cuh"
#include "core/verify/device_reference.h"

namespace mish {
namespace {

// The copy probe: 256 MiB each way, far beyond any L2, or a quarter of free memory if less.
size_t copy_probe_bytes(const DeviceInfo& device) {
  return std::min<size_t>(size_t(256) << 20, device.free_bytes / 4);
}

// The read probe: 1 GiB, many times any L2 (as W is), or a quarter of free memory if less.
size_t read_probe_bytes(const DeviceInfo& device) {
  return std::min<size_t>(size_t(1) << 30, device.free_bytes / 4) / 16 * 16;
}

std::string fmt_gib(uint64_t bytes) { return fmt::format("{:.2f} GiB", double(bytes) / (1 << 30)); }

}  // namespace

// A blocking stream: work a backend launches on the legacy default stream (a KernelBench kernel
// launched without a stream, say) is ordered after the timed stream's work before it and before its
// work after it, so it is timed with the call, as KernelBench orders and times it.
Stream::Stream() { MISH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamDefault)); }
Stream::~Stream() { MISH_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_)); }

uint64_t base_device_bytes(const Problem& problem, const DeviceInfo& device, L2Mode l2) {
  // The output store's fewest slots and its scratch slot, and the checker's x and float64
  // reference (run/call_checker.h).
  const uint64_t checking = 4 * 4 * problem.y_count() + 4 * problem.x_count() +
                            DeviceReference::bytes_needed(problem);
  return problem.io_bytes() + l2_flush_bytes(device.l2_bytes, l2) + checking;
}

std::unique_ptr<DeviceContext> open_device_context(int ordinal,
                                                   const std::vector<Problem>& problems, L2Mode l2,
                                                   bool quiet, const std::string& label) {
  std::string why;
  const std::optional<DeviceInfo> device = query_device(ordinal, &why);
  if (!device) {
    std::string count_why;
    const int visible = visible_device_count(&count_why);
    throw EnvironmentError(fmt::format("CUDA device {} cannot be used ({}); {} CUDA device{} "
                                       "visible",
                                       ordinal, why, visible, visible == 1 ? " is" : "s are"));
  }
  for (const Problem& p : problems) {
    const uint64_t need = base_device_bytes(p, *device, l2);
    if (need > device->free_bytes)
      throw EnvironmentError(fmt::format(
          "not enough device memory for {}: needs at least {} (inputs, output{}), {} free on {}; "
          "use smaller --m/--n/--k",
          p.shape(), fmt_gib(need), l2 == L2Mode::flush ? ", L2 flush buffer" : "",
          fmt_gib(device->free_bytes), label.empty() ? device->name
                                                     : fmt::format("device {} ({})", ordinal,
                                                                   device->name)));
  }
  auto context = std::make_unique<DeviceContext>();
  context->device = *device;
  context->clocks = ClockMonitor::open(device->ordinal, &context->clocks_note);
  if (!context->clocks && !quiet)
    fmt::print(stderr, "{}clocks not recorded: {}\n", label, context->clocks_note);
  context->timer = std::make_unique<DeviceTimer>(context->stream.get(), device->l2_bytes,
                                                 device->sms, l2, context->clocks.get());
  context->copy_bandwidth = measure_copy_bandwidth(*context->timer, copy_probe_bytes(*device));
  context->read_bandwidth =
      measure_read_bandwidth(*context->timer, read_probe_bytes(*device), device->sms);
  if (!quiet)
    fmt::print(stderr,
               "{}device-to-device copy: {:.0f} GB/s (bytes read + written); read: {:.0f} GB/s\n",
               label, context->copy_bandwidth.gb_per_s, context->read_bandwidth.gb_per_s);
  return context;
}

DeviceRecord DeviceContext::record() const {
  DeviceRecord record;
  record.info = device;
  record.copy_bandwidth = copy_bandwidth;
  record.read_bandwidth = read_bandwidth;
  record.clocks_note = clocks_note;
  if (clocks) record.max_sm_mhz = clocks->max_sm_mhz();
  return record;
}

}  // namespace mish
