// Every device backend of the fp32 accuracy class passes verification (atol = rtol = 1e-4 against
// the float64 reference, every element) on small odd shapes that exercise tile edges and on the
// default problem. A backend may decline a small shape in supports(), never the default problem.
// Reduced-precision backends (tf32, bf16) are checked in test_split_backends.cpp.
#include <gtest/gtest.h>

#include "backends/builtin/registry.h"
#include "gpu_test_support.h"
#include "run/runner.h"

namespace mish {
namespace {

std::vector<std::string> device_backend_names() {
  std::vector<std::string> names;
  for (const BackendEntry& entry : builtin_backends())
    if (entry.info.placement == Placement::device && entry.info.accuracy == Accuracy::fp32)
      names.push_back(entry.info.name);
  return names;
}

class DeviceBackendsOnShape : public ::testing::TestWithParam<Problem> {};

TEST_P(DeviceBackendsOnShape, VerifyWithZeroMismatches) {
  MISH_REQUIRE_GPU();
  RunConfig config;
  config.problems = {GetParam()};
  config.backends = device_backend_names();
  config.sampling.warmup = 0;  // correctness is the point: no warm-up, one sample
  config.sampling.iters = 1;
  config.execution.l2 = L2Mode::hot;
  config.quiet = true;
  const RunOutcome outcome = run_builtin_backends(config);
  ASSERT_EQ(outcome.runs.size(), 1u);
  const ProblemRun& run = outcome.runs[0];
  ASSERT_EQ(run.results.size(), config.backends.size());
  for (const BackendResult& r : run.results) {
    SCOPED_TRACE(r.backend);
    if (r.status == Status::skipped && run.problem.shape() != Problem{}.shape()) continue;
    EXPECT_EQ(r.status, Status::ok) << r.reason;
    ASSERT_TRUE(r.verification.has_value());
    EXPECT_EQ(r.verification->checked, run.problem.y_count());
    EXPECT_EQ(r.verification->mismatches, 0u);
    EXPECT_EQ(r.verification->nonfinite, 0u);
    EXPECT_EQ(r.samples_ms.size(), 1u);
    RecordProperty(r.backend + "_max_abs", std::to_string(r.verification->max_abs));
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, DeviceBackendsOnShape,
                         ::testing::Values(test_shape(1, 1, 1), test_shape(17, 33, 65),
                                           test_shape(127, 129, 255), Problem{}),
                         [](const auto& info) { return info.param.shape(); });

}  // namespace
}  // namespace mish
