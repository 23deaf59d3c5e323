// The device Mish (launch_bias_mish without bias) agrees with the host build of the same mish(),
// once and twice applied, through both the float4 and the scalar kernel. The bound, per
// application: the device exp is within 2 + |x| ulp (mish_exp: ex2.approx, 2 ulp, on a product
// rounded to fp32) and the host's expf within 1; for x < 0 the formula passes that relative error
// through at most unchanged, for x > 0 n(n+2) / (n(n+2) + 2) damps the |x| part away; the device
// quotient is within 1 ulp (reciprocal plus one Newton step) where the host's is correctly rounded,
// and one more correctly rounded multiplication follows: 4 ulp, plus |x| for x < 0. A second Mish
// works on the first one's result (>= -0.31), so twice applied the bound is 8 ulp, plus |x| for
// x < 0. The device exp flushes results below fp32's smallest normal (x < -87) to zero, so where
// the host's Mish is subnormal the device's may be zero.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "base/cuda/device_buffer.h"
#include "epilogue.cuh"
#include "gpu_test_support.h"
#include "mish.cuh"

namespace mish {
namespace {

// Distance in representable floats (0 for +0 and -0).
int64_t ulp_distance(float a, float b) {
  auto ordered = [](float f) {
    int32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    return bits < 0 ? int64_t(INT32_MIN) - bits : int64_t(bits);
  };
  return std::llabs(ordered(a) - ordered(b));
}

std::vector<float> sweep_inputs() {
  std::vector<float> x;
  for (int i = -30 * 1024; i <= 30 * 1024; ++i) x.push_back(std::ldexp(float(i), -10));
  const float big = std::numeric_limits<float>::max(), tiny = std::numeric_limits<float>::denorm_min();
  for (float v : {20.0f, 25.0f, 100.0f, 1e30f, big, tiny, 1e-30f, -0.0f})
    x.insert(x.end(), {v, -v});
  while (x.size() % 4 != 0) x.push_back(0.5f);  // the [1, n] layout takes the float4 path
  return x;
}

struct Case {
  int mish_count;
  bool one_row;  // [1, n]: float4 kernel; [n, 1]: scalar kernel
};

class DeviceMish : public ::testing::TestWithParam<Case> {};

TEST_P(DeviceMish, AgreesWithHostWithinItsUlpBound) {
  MISH_REQUIRE_GPU();
  const auto [mish_count, one_row] = GetParam();
  const std::vector<float> x = sweep_inputs();
  const int64_t n = static_cast<int64_t>(x.size());
  DeviceBuffer<float> y(x.size());
  MISH_CUDA_CHECK(cudaMemcpy(y.get(), x.data(), y.bytes(), cudaMemcpyHostToDevice));
  launch_bias_mish(y.get(), nullptr, one_row ? 1 : n, one_row ? n : 1, mish_count, nullptr);
  std::vector<float> device(x.size());
  MISH_CUDA_CHECK(cudaMemcpy(device.data(), y.get(), y.bytes(), cudaMemcpyDeviceToHost));

  int64_t worst_excess = std::numeric_limits<int64_t>::min();  // ulps over the bound
  size_t worst_at = 0;
  std::vector<float> host(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    host[i] = x[i];
    for (int c = 0; c < mish_count; ++c) host[i] = mish(host[i]);
    ASSERT_TRUE(std::isfinite(device[i])) << "x = " << x[i];
    if (std::fabs(host[i]) < std::numeric_limits<float>::min() && device[i] == 0.0f) continue;
    // The exponent's error shows for x < 0 only; mish() clamps x at -110 before the exp.
    const float negative_part = std::fmin(std::fmax(-x[i], 0.0f), 110.0f);
    const int64_t bound = 4 * mish_count + static_cast<int64_t>(std::ceil(negative_part));
    const int64_t excess = ulp_distance(device[i], host[i]) - bound;
    if (excess > worst_excess) worst_excess = excess, worst_at = i;
  }
  RecordProperty("worst_ulps_over_bound", std::to_string(worst_excess));
  EXPECT_LE(worst_excess, 0) << "x = " << x[worst_at] << ": device " << device[worst_at]
                             << ", host " << host[worst_at];
}

INSTANTIATE_TEST_SUITE_P(Layouts, DeviceMish,
                         ::testing::Values(Case{1, true}, Case{2, true}, Case{1, false},
                                           Case{2, false}),
                         [](const auto& info) {
                           return std::string(info.param.mish_count == 1 ? "once" : "twice") +
                                  (info.param.one_row ? "_float4" : "_scalar");
                         });

}  // namespace
}  // namespace mish
