// One backend on one problem, as a sequence of small steps over a small context, in the order
// the run takes them (as llm.c's dev/cuda does): supports -> setup -> prepack -> verify -> dump ->
// time -> stages -> graph. Each step records what it finds in the result; run_steps() catches
// every failure and records it, so one backend never stops the run.
#pragma once
#include <vector>

#include "config/run_config.h"
#include "outcome/outcome.h"
#include "run/buffers.h"
#include "run/executor.h"
#include "problem/problem_data.h"

namespace mish {

struct StepContext {
  const RunConfig& config;
  const ProblemData& data;
  const DeviceInfo* device;  // null without a GPU
  bool with_clocks;          // whether device samples carry clock readings
  ProblemBuffers& buffers;
  Executor& executor;
  BackendResult& result;
  std::vector<float> y;  // the last output read back
};

bool check_support(StepContext& context);  // false: skipped, with the reason
void set_up(StepContext& context);
void time_prepack(StepContext& context);
void verify_output(StepContext& context);
void dump_output(StepContext& context);
void time_forward_pass(StepContext& context);
void time_stages(StepContext& context);
void time_graph(StepContext& context);

// All of the above, in order, for `info`'s backend; the result of every step, failures included.
BackendResult run_steps(const RunConfig& config, const ProblemData& data, const DeviceInfo* device,
                        bool with_clocks, ProblemBuffers& buffers, Executor& executor,
                        const BackendInfo& info);

}  // namespace mish
