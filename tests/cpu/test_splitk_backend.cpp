// The small-batch backend declines, with a reason and before touching a device, what it cannot
// run, says what it is before setup, and checks its options.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "backends/builtin/registry.h"
#include "backends/builtin/registry.h"
#include "base/common/errors.h"

namespace mish {
namespace {

DeviceInfo device_with(int cc_major, int cc_minor) {
  DeviceInfo d;
  d.name = "test device";
  d.cc_major = cc_major, d.cc_minor = cc_minor;
  return d;
}

Problem shape(int64_t m, int64_t n, int64_t k) {
  Problem p;
  p.m = m, p.n = n, p.k = k;
  return p;
}

TEST(SplitkBackend, RegisteredAfterWgmmaAndBeforeCpu) {
  const std::vector<std::string> names = backend_names(builtin_backends());
  const auto at = [&](const char* name) {
    return std::find(names.begin(), names.end(), name) - names.begin();
  };
  EXPECT_EQ(at("splitk"), at("wgmma") + 1);
  EXPECT_LT(at("splitk"), at("cpu"));
}

TEST(SplitkBackend, DescribesItsSchemeBeforeSetup) {
  const std::unique_ptr<Backend> splitk = make_builtin_backend("splitk");
  EXPECT_TRUE(splitk->prepacks_weights());
  EXPECT_EQ(splitk->expected_accuracy(), Accuracy::fp32);
  EXPECT_EQ(splitk->math_mode(), "fp16x3");
  const nlohmann::json d = splitk->describe();
  EXPECT_EQ(d.at("tensor_core_passes"), 3);
  EXPECT_FALSE(d.contains("split_k")) << "no plan before setup";
}

TEST(SplitkBackend, ConfigureTakesSlicesAndPrefetchDistanceOnly) {
  const auto splitk = make_builtin_backend("splitk");
  EXPECT_NO_THROW(splitk->configure({{"slices", 4}, {"prefetch_chunks", 0}}));
  EXPECT_NO_THROW(splitk->configure({{"slices", 0}, {"prefetch_chunks", 8}}));
  for (const nlohmann::json& bad :
       {nlohmann::json{{"slices", -1}}, nlohmann::json{{"slices", 1025}},
        nlohmann::json{{"slices", "four"}}, nlohmann::json{{"prefetch_chunks", 9}},
        nlohmann::json{{"prefetch_chunks", 1.5}}, nlohmann::json{{"chunks", 2}}})
    EXPECT_THROW(splitk->configure(bad), UsageError) << bad.dump();
}

TEST(SplitkSupports, NeedsADeviceOfComputeCapability8OrNewer) {
  const auto splitk = make_builtin_backend("splitk");
  const Support none = splitk->supports(Problem{}, nullptr);
  EXPECT_FALSE(none.ok);
  EXPECT_NE(none.reason.find("CUDA device"), std::string::npos) << none.reason;
  const DeviceInfo turing = device_with(7, 5);
  const Support old = splitk->supports(Problem{}, &turing);
  EXPECT_FALSE(old.ok);
  EXPECT_NE(old.reason.find("8.0 or newer"), std::string::npos) << old.reason;
  EXPECT_NE(old.reason.find("7.5"), std::string::npos) << old.reason;
}

// Checked before the device is asked whether this build can run the kernel.
TEST(SplitkSupports, DeclinesExtentsBeyondItsIndexRange) {
  const DeviceInfo hopper = device_with(9, 0);
  const auto splitk = make_builtin_backend("splitk");
  const int64_t too_many = int64_t(1) << 30;
  for (const Problem& p : {shape(too_many, 256, 64), shape(8, too_many, 64),
                           shape(8, 256, too_many)}) {
    const Support s = splitk->supports(p, &hopper);
    EXPECT_FALSE(s.ok) << p.shape();
    EXPECT_NE(s.reason.find("below"), std::string::npos) << s.reason;
  }
}

}  // namespace
}  // namespace mish
