// Checks the outputs a series kept (exec/executor/call_hooks.h). The call on the problem's own x is
// checked against the CPU float64 reference, the trust anchor; every other call against a
// float64 reference of its own x: on the GPU for device backends (core/verify/device_reference.h),
// which is itself held against the CPU reference on the problem's x when it is made, and on the
// CPU for host backends. The x of a call is drawn again from its seed here, in the tool's own
// memory: nothing a backend can reach takes part in judging it.
#pragma once
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "base/cuda/device_buffer.h"
#include "core/problem/problem_data.h"
#include "core/verify/verify.h"
#include "exec/executor/buffers.h"

namespace mish {

class DeviceReference;

class CallChecker {
 public:
  // `stream`: the device the outputs are on (null: host outputs). Throws EnvironmentError when
  // the GPU reference disagrees with the CPU reference on the problem's x.
  CallChecker(const ProblemData& data, cudaStream_t stream);
  ~CallChecker();
  CallChecker(const CallChecker&) = delete;
  CallChecker& operator=(const CallChecker&) = delete;

  // The output in `slot` of `buffers`' store, whose x was drawn with `seed` (`main_x`: the
  // problem's own x; then the output is also left in `main_y`).
  Verification check(ProblemBuffers& buffers, uint32_t slot, uint64_t seed, bool main_x,
                     const Tolerance& tolerance, std::vector<float>& main_y);
  // Which reference checks the calls on fresh x, and how it agreed with the trust anchor.
  const std::string& reference_note() const { return note_; }

 private:
  Verification check_main(ProblemBuffers& buffers, uint32_t slot, const Tolerance& tolerance,
                          std::vector<float>& y);
  Verification check_on_device(ProblemBuffers& buffers, uint32_t slot, uint64_t seed,
                               const Tolerance& tolerance);
  Verification check_on_host(ProblemBuffers& buffers, uint32_t slot, uint64_t seed,
                             const Tolerance& tolerance);

  const ProblemData& data_;
  cudaStream_t stream_;
  HostInputs drawn_;       // host: the x of the call being checked, beside the problem's W and b
  DeviceBuffer<float> x_;  // device: the x of the call being checked
  std::unique_ptr<DeviceReference> reference_;
  std::string note_;
};

}  // namespace mish
