// One backend on one problem, as a sequence of small steps over a small context, in the order
// the run takes them (as llm.c's dev/cuda does): supports -> setup -> prepack -> verify -> dump ->
// time -> fresh input -> stages -> graph -> inputs. Each step records what it finds in the
// result; run_steps() catches every failure and records it, so one backend never stops the run.
// Timed series are audited against device-synchronized wall time and watched for other processes
// on the GPU; the inputs are checked, and restored, after every backend.
#pragma once
#include <functional>
#include <vector>

#include "config/run_config.h"
#include "outcome/outcome.h"
#include "problem/problem_data.h"
#include "run/buffers.h"
#include "run/executor.h"
#include "timing/clocks.h"

namespace mish {

// What the steps need besides the backend: the problem, the device, the run's clock monitor
// (null without NVML), and fresh inputs for the stale-output check, made on first use.
struct StepEnv {
  const RunConfig& config;
  const ProblemData& data;
  std::function<const ProblemData&()> fresh;  // same problem, other x, its own reference
  const DeviceInfo* device;                   // null without a GPU
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
  std::vector<float> y;  // the last output read back
};

bool check_support(StepContext& context);  // false: skipped, with the reason
void set_up(StepContext& context);
void time_prepack(StepContext& context);
void verify_output(StepContext& context);
void dump_output(StepContext& context);
void time_forward_pass(StepContext& context);
void verify_fresh_input(StepContext& context);
void time_stages(StepContext& context);
void time_graph(StepContext& context);
void check_inputs(StepContext& context);  // also restores them

// All of the above, in order, for `info`'s backend; the result of every step, failures included.
BackendResult run_steps(const StepEnv& env, ProblemBuffers& buffers, Executor& executor,
                        const BackendInfo& info);

// The audit's margin: figures are refused when the events miss more than this share of the
// device-synchronized wall time, plus a fixed slack for the synchronizations themselves.
constexpr double kAuditMargin = 0.10;
constexpr double kAuditSlackMs = 1.0;
// Readings an audit takes before it refuses: figures are refused only when every one misses.
constexpr int kAuditAttempts = 3;

}  // namespace mish
