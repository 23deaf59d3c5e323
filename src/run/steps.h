// One backend on one problem, as a sequence of small steps over a small context, in the order
// the run takes them: supports -> setup -> prepack -> time (and check) -> dump -> stages -> graph
// -> inputs. The timed calls are the checked calls: every call of every series gets fresh x and a
// poisoned y and has its output kept, and the kept outputs are checked after the series
// (exec/executor/call_hooks.h, run/call_checker.h). Each step records what it finds in the result;
// run_steps() catches every failure and records it, so one backend never stops the run. Plain
// and graph series are audited (every kernel of an audit series held against the calls' timed
// regions, or the events against wall time where CUPTI cannot record) and watched for other
// processes on the GPU; a median under the physical floor is implausible; the inputs are
// checked, and restored, after every backend.
#pragma once
#include <functional>
#include <vector>

#include "core/outcome/outcome.h"
#include "core/problem/problem_data.h"
#include "core/timing/clocks.h"
#include "exec/executor/buffers.h"
#include "exec/executor/executor.h"
#include "run/call_checker.h"
#include "settings/run_config.h"

namespace mish {

// What the steps need besides the backend: the problem, the device, the run's clock monitor
// (null without NVML), the run's secret nonce and the checkers of kept outputs.
struct StepEnv {
  const RunConfig& config;
  const ProblemData& data;
  uint64_t nonce;                                       // draws every fresh x (CallPlan)
  std::function<CallChecker&(bool on_device)> checker;  // made on first use, per problem
  const DeviceInfo* device;                             // null without a GPU
  const DeviceRecord* record;                           // its measured bandwidths; null too
  const ClockMonitor* monitor;
  std::function<std::vector<unsigned>()> own_pids;  // the tool's workers, for the tenant watch
  // With several devices: "gpu 1: " before the warnings printed, and "_gpu1" after the backend's
  // name in the --dump file of its output; both empty with one device.
  std::string label;
  std::string dump_suffix;
  bool progress = true;  // progress bars may be drawn (not while several devices run at once)
};

struct StepContext {
  const StepEnv& env;
  ProblemBuffers& buffers;
  Executor& executor;
  BackendResult& result;
  bool on_device;
  std::vector<float> y;       // the output of the call on the problem's own x
  uint64_t next_call = 0;     // calls made so far, over all series (CallPlan::first_call)
  uint64_t last_x_seed = 0;   // the seed of the x the last call left in the buffers
};

bool check_support(StepContext& context);  // false: skipped, with the reason
void set_up(StepContext& context);
void time_prepack(StepContext& context);
void time_forward_pass(StepContext& context);  // also checks its calls and the physical floor
void dump_output(StepContext& context);
void time_stages(StepContext& context);
void time_graph(StepContext& context);
void check_inputs(StepContext& context);  // also restores them

// All of the above, in order, for `info`'s backend; the result of every step, failures included.
BackendResult run_steps(const StepEnv& env, ProblemBuffers& buffers, Executor& executor,
                        const BackendInfo& info);

// The wall-time audit's margin (where CUPTI cannot record): figures are refused when the events
// miss more than this share of the device-synchronized wall time, plus a fixed slack for the
// synchronizations themselves.
constexpr double kAuditMargin = 0.10;
constexpr double kAuditSlackMs = 1.0;
// Readings an audit takes before it refuses: figures are refused only when every one misses.
constexpr int kAuditAttempts = 3;

}  // namespace mish
