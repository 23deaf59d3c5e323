// The fused Hopper backend declines what it cannot run, with a reason, before touching a device;
// its options are checked; and its plan covers every SM at small m with split-K.
#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "backends/builtin/registry.h"
#include "base/common/errors.h"
#include "wgmma_fp16x3.cuh"

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
// 32-bit row, tile and W block numbering cannot address are declined, before any device call.
TEST(WgmmaSupports, DeclinesShapesBeyondItsIndexRange) {
  const DeviceInfo device = hopper();
  const auto backend = make_builtin_backend("wgmma");
  const int64_t too_many = int64_t(1) << 30, many = int64_t(1) << 29;
  for (const Problem& p : {shape(too_many, 128, 64), shape(128, too_many, 64),
                           shape(128, 128, too_many), shape(1, many, many)}) {
    const Support s = backend->supports(p, &device);
    EXPECT_FALSE(s.ok) << p.shape();
    EXPECT_NE(s.reason.find("below"), std::string::npos) << s.reason;
  }
}

TEST(WgmmaBackend, ConfigureTakesTheTileGroupAndSplitKFactorOnly) {
  const auto wgmma = make_builtin_backend("wgmma");
  EXPECT_NO_THROW(wgmma->configure({{"group_m", 8}, {"slices", 0}}));
  EXPECT_NO_THROW(wgmma->configure({{"group_m", 0}, {"slices", 1024}}));
  for (const nlohmann::json& bad :
       {nlohmann::json{{"slices", -1}}, nlohmann::json{{"slices", 1025}},
        nlohmann::json{{"slices", "two"}}, nlohmann::json{{"group_m", 1.5}},
        nlohmann::json{{"group_m", -2}}, nlohmann::json{{"chunks", 2}}})
    EXPECT_THROW(wgmma->configure(bad), UsageError) << bad.dump();
}

// A group's x split (128 rows of hi and lo per m tile) within 32 MiB: the whole x up to M = 1024
// at K = 8192.
TEST(WgmmaPlan, DefaultTileGroupKeepsItsXWithin32MiB) {
  EXPECT_EQ(wgmma_default_group_m(8192), 8);
  EXPECT_EQ(wgmma_default_group_m(8185), 8) << "rows padded to 8192";
  EXPECT_EQ(wgmma_default_group_m(8200), 7);
  EXPECT_EQ(wgmma_default_group_m(1024), 64);
  EXPECT_EQ(wgmma_default_group_m(1), 8192);
  EXPECT_EQ(wgmma_default_group_m(int64_t(1) << 29), 1) << "at least one m tile";
}

// 132 SMs, as on an H200.
TEST(WgmmaPlan, SplitsKOnlyWhenTheTilesLeaveSmsIdle) {
  const WgmmaPlan large = plan_wgmma_layer(1024, 8192, 8192, 132, 0);
  EXPECT_EQ(large.tiles, 512);
  EXPECT_EQ(large.slices, 1);
  EXPECT_EQ(large.ctas, 132);
  EXPECT_EQ(large.transposed_n, 0);
  EXPECT_EQ(large.workspace_bytes, 0u);

  const WgmmaPlan small = plan_wgmma_layer(64, 8192, 8192, 132, 0);
  EXPECT_EQ(small.tiles, 64);
  EXPECT_EQ(small.slices, 2);
  EXPECT_EQ(small.slice_blocks, 64);
  EXPECT_EQ(small.ctas, 128);
  EXPECT_EQ(small.transposed_n, 64);
  EXPECT_TRUE(small.pairs) << "two slices, one unit per CTA: the slices add up in clusters";
  EXPECT_EQ(small.counters, 0);
  EXPECT_EQ(small.workspace_bytes, 0u);
  EXPECT_FALSE(large.pairs);

  // Other split-K plans go through the workspace; the transposed tile's parts hold x's padded
  // rows only; without split-K there are none.
  const WgmmaPlan three = plan_wgmma_layer(64, 8192, 8192, 132, 3);
  EXPECT_FALSE(three.pairs);
  EXPECT_EQ(three.counters, 64);
  EXPECT_EQ(three.workspace_bytes, size_t(3) * 64 * 64 * 128 * sizeof(float));
  const WgmmaPlan eight = plan_wgmma_layer(8, 8192, 8192, 66, 0);
  EXPECT_EQ(eight.transposed_n, 8);
  EXPECT_EQ(eight.slices, 1);
  const WgmmaPlan more_units = plan_wgmma_layer(8, 8192 * 3, 8192, 132, 2);
  EXPECT_EQ(more_units.ctas, 132);
  EXPECT_FALSE(more_units.pairs) << "a CTA with two units has no free ring for the exchange";
  EXPECT_EQ(more_units.workspace_bytes, size_t(2) * 192 * 8 * 128 * sizeof(float));
  const WgmmaPlan wide = plan_wgmma_layer(100, 8192, 8192, 132, 0);
  EXPECT_EQ(wide.slices, 2);
  EXPECT_FALSE(wide.pairs) << "the 128 x 128 tiles keep the workspace";
  const WgmmaPlan one = plan_wgmma_layer(1, 128, 64, 132, 0);
  EXPECT_EQ(one.slices, 1);
  EXPECT_EQ(one.transposed_n, 8);
  EXPECT_EQ(one.workspace_bytes, 0u);
  EXPECT_EQ(one.counters, 0);

  // Slices are at least kWgmmaMinSliceK long unless fixed.
  const WgmmaPlan short_k = plan_wgmma_layer(128, 128, 2048, 132, 0);
  EXPECT_EQ(short_k.slices, 2048 / kWgmmaMinSliceK);
  const WgmmaPlan fixed = plan_wgmma_layer(128, 128, 2048, 132, 7);
  EXPECT_EQ(fixed.slices, 7);  // 32 k blocks as 6 x 5 + 2
  EXPECT_EQ(fixed.slice_blocks, 5);
  EXPECT_EQ(plan_wgmma_layer(128, 128, 100, 132, 50).slices, 2) << "at most one per k block";
}

// x's rows take wgmma's N side at m <= 64, padded to the next of 8, 16, 32 and 64; a ring slot then
// holds one k block of W's 128 rows and x's padded rows, as many as 7 x 32 KiB hold.
TEST(WgmmaPlan, TransposedPathPadsXRowsToTheWgmmaN) {
  const std::pair<int64_t, int> cases[] = {{1, 8},   {8, 8},   {9, 16},  {16, 16}, {17, 32},
                                           {32, 32}, {33, 64}, {64, 64}, {65, 0},  {1024, 0}};
  for (const auto& [m, n] : cases) EXPECT_EQ(wgmma_transposed_n(m), n) << "m = " << m;
  EXPECT_EQ(wgmma_ring_slots(0), kWgmmaRingSlots);
  for (const int n : {8, 16, 32, 64}) {
    const int64_t slot_bytes = 2 * (kWgmmaTileN + n) * kWgmmaBlockK * 2;  // hi and lo, fp16
    EXPECT_EQ(wgmma_ring_slots(n), kWgmmaRingSlots * 32 * 1024 / slot_bytes) << "n = " << n;
  }
  EXPECT_EQ(wgmma_ring_slots(64), 4);
  EXPECT_EQ(wgmma_ring_slots(8), 6);
}

}  // namespace
}  // namespace mish
