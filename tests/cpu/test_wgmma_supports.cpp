// The fused Hopper backend declines what it cannot run, with a reason, before touching a device.
#include <gtest/gtest.h>

#include <memory>

#include "backends/registry.h"

namespace mish {
namespace {

DeviceInfo hopper() {
  DeviceInfo d;
  d.name = "NVIDIA H200";
  d.cc_major = 9, d.cc_minor = 0;
  return d;
}

Problem shape(int64_t m, int64_t n, int64_t k) {
  Problem p;
  p.m = m, p.n = n, p.k = k;
  return p;
}

TEST(WgmmaBackend, PrepacksWeightsAndReportsItsPasses) {
  const std::unique_ptr<Backend> wgmma = make_builtin_backend("wgmma");
  EXPECT_TRUE(wgmma->prepacks_weights());
  EXPECT_EQ(wgmma->expected_accuracy(), Accuracy::fp32);
  EXPECT_EQ(wgmma->describe().at("tensor_core_passes"), 3);
}

TEST(WgmmaSupports, DeclinesWithoutADevice) {
  const Support s = make_builtin_backend("wgmma")->supports(Problem{}, nullptr);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.reason.find("CUDA device"), std::string::npos) << s.reason;
}

TEST(WgmmaSupports, DeclinesOtherArchitectures) {
  DeviceInfo ampere = hopper();
  ampere.name = "NVIDIA A100";
  ampere.cc_major = 8;
  const Support s = make_builtin_backend("wgmma")->supports(Problem{}, &ampere);
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.reason.find("9.0"), std::string::npos) << s.reason;
}

// Off-grid shapes run (zero-filled edge tiles, predicated stores); only extents the kernel's
// 32-bit row and tile numbering cannot address are declined, before any device call.
TEST(WgmmaSupports, DeclinesShapesBeyondItsIndexRange) {
  const DeviceInfo device = hopper();
  const auto backend = make_builtin_backend("wgmma");
  const int64_t too_many = int64_t(1) << 30;
  for (const Problem& p : {shape(too_many, 128, 64), shape(128, too_many, 64),
                           shape(128, 128, too_many)}) {
    const Support s = backend->supports(p, &device);
    EXPECT_FALSE(s.ok) << p.shape();
    EXPECT_NE(s.reason.find("below"), std::string::npos) << s.reason;
  }
}

}  // namespace
}  // namespace mish
