// The float64 reference on the device (core/verify/device_reference.h) against the CPU one, on shapes
// from one element to odd sizes past a few tiles: the values agree to 1e-12 of the largest, also
// for an x that is not the problem's own; check() gives host verify()'s figures, against either
// reference, and counts planted faults exactly with the host's tie-break; input_magnitude() is the
// host's. One output past 2^31 elements holds the check's 64-bit indices to account.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "../distribution_param_name.h"
#include "base/cuda/device_buffer.h"
#include "core/problem/generator.h"
#include "core/reference/reference.h"
#include "core/verify/device_reference.h"
#include "core/verify/verify.h"
#include "gpu_test_support.h"

namespace mish {
namespace {

struct Shape {
  int64_t m, n, k;
};
constexpr Shape kShapes[] = {{1, 1, 1}, {17, 33, 65}, {64, 256, 512}, {300, 515, 1031}};

DeviceBuffer<float> upload(const std::vector<float>& host) {
  DeviceBuffer<float> device(host.size());
  MISH_CUDA_CHECK(cudaMemcpy(device.get(), host.data(), device.bytes(), cudaMemcpyHostToDevice));
  return device;
}

std::vector<float> narrowed(const std::vector<double>& values) {
  return std::vector<float>(values.begin(), values.end());
}

// max |got - expected| / max |expected|; infinity if got holds a NaN or an Inf.
double relative_difference(const std::vector<double>& got, const std::vector<double>& expected) {
  double max_diff = 0.0, max_ref = 0.0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!std::isfinite(got[i])) return std::numeric_limits<double>::infinity();
    max_diff = std::max(max_diff, std::fabs(got[i] - expected[i]));
    max_ref = std::max(max_ref, std::fabs(expected[i]));
  }
  return max_ref > 0.0 ? max_diff / max_ref : max_diff;
}

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double max_diff = 0.0;
  for (size_t i = 0; i < a.size(); ++i) max_diff = std::max(max_diff, std::fabs(a[i] - b[i]));
  return max_diff;
}

// The device check of y against the host verify() of y against another reference: the figures
// that do not depend on the references' last bits. max_abs moves by at most as much as the
// references differ (`reference_difference`, their max |difference|), plus 1e-15.
void expect_same_figures(const Verification& device, const Verification& host,
                         double reference_difference) {
  EXPECT_EQ(device.checked, host.checked);
  EXPECT_EQ(device.mismatches, host.mismatches);
  EXPECT_EQ(device.nonfinite, host.nonfinite);
  EXPECT_EQ(device.worst.row, host.worst.row);
  EXPECT_EQ(device.worst.col, host.worst.col);
  EXPECT_NEAR(device.max_abs, host.max_abs, reference_difference + 1e-15);
  EXPECT_EQ(device.passed(), host.passed());
}

// Against the reference the device computed, every figure is the host's to the bit.
void expect_identical(const Verification& device, const Verification& host) {
  expect_same_figures(device, host, 0.0);
  EXPECT_EQ(device.max_abs, host.max_abs);
  EXPECT_EQ(device.max_rel, host.max_rel);
  EXPECT_EQ(device.worst.expected, host.worst.expected);
  if (std::isnan(host.worst.got))
    EXPECT_TRUE(std::isnan(device.worst.got));
  else
    EXPECT_EQ(device.worst.got, host.worst.got);
}

class DeviceReferenceTest : public ::testing::TestWithParam<Distribution> {};

TEST_P(DeviceReferenceTest, MatchesCpuReference) {
  MISH_REQUIRE_GPU();
  for (const Shape& s : kShapes) {
    const Problem p = test_shape(s.m, s.n, s.k, GetParam());
    SCOPED_TRACE(p.shape());
    const HostInputs inputs = generate_inputs(p);
    const DeviceBuffer<float> x = upload(inputs.x);
    DeviceReference reference(p, inputs, nullptr);
    reference.compute(x.get());
    EXPECT_LE(relative_difference(reference.download(), compute_reference(p, inputs)), 1e-12);

    // A sample's fresh x with the problem's W and b, as the timed samples have.
    HostInputs sample = inputs;
    sample.x = generate_inputs(test_shape(s.m, s.n, s.k, GetParam(), p.seed + 1)).x;
    const DeviceBuffer<float> sample_x = upload(sample.x);
    reference.compute(sample_x.get());
    EXPECT_LE(relative_difference(reference.download(), compute_reference(p, sample)), 1e-12);
  }
}

TEST_P(DeviceReferenceTest, CheckGivesHostVerifyFigures) {
  MISH_REQUIRE_GPU();
  const Tolerance tolerance;
  for (const Shape& s : kShapes) {
    const Problem p = test_shape(s.m, s.n, s.k, GetParam());
    SCOPED_TRACE(p.shape());
    const HostInputs inputs = generate_inputs(p);
    const std::vector<double> cpu_ref = compute_reference(p, inputs);
    const DeviceBuffer<float> x = upload(inputs.x);
    DeviceReference reference(p, inputs, nullptr);
    reference.compute(x.get());
    const std::vector<double> device_ref = reference.download();

    const std::vector<float> y = narrowed(cpu_ref);
    const DeviceBuffer<float> y_device = upload(y);
    const Verification v = reference.check(y_device.get(), tolerance);
    const Verification host = verify(y.data(), cpu_ref.data(), p.m, p.n, tolerance);
    EXPECT_TRUE(host.passed());
    EXPECT_TRUE(v.passed());
    EXPECT_EQ(v.checked, p.y_count());
    expect_same_figures(v, host, max_abs_difference(device_ref, cpu_ref));
    expect_identical(v, verify(y.data(), device_ref.data(), p.m, p.n, tolerance));
  }
}

// One element off by 1e-3 (where |ref| is smallest, so that it is outside the tolerance on
// every distribution), a NaN and, at a higher index, an Inf: both score infinity, and the NaN
// is the worst by the lower index.
TEST_P(DeviceReferenceTest, CountsPlantedFaultsExactly) {
  MISH_REQUIRE_GPU();
  const Tolerance tolerance;
  for (const Shape& s : kShapes) {
    const Problem p = test_shape(s.m, s.n, s.k, GetParam());
    const uint64_t count = p.y_count();
    if (count < 3) continue;  // three faults need three elements
    SCOPED_TRACE(p.shape());
    const HostInputs inputs = generate_inputs(p);
    const std::vector<double> cpu_ref = compute_reference(p, inputs);
    const DeviceBuffer<float> x = upload(inputs.x);
    DeviceReference reference(p, inputs, nullptr);
    reference.compute(x.get());

    const uint64_t nan_index = count / 4, inf_index = 3 * count / 4;
    uint64_t off_index = count;
    for (uint64_t i = 0; i < count; ++i) {
      if (i == nan_index || i == inf_index) continue;
      if (off_index == count || std::fabs(cpu_ref[i]) < std::fabs(cpu_ref[off_index]))
        off_index = i;
    }
    std::vector<float> y = narrowed(cpu_ref);
    y[off_index] = float(cpu_ref[off_index] + 1e-3);
    y[nan_index] = std::numeric_limits<float>::quiet_NaN();
    y[inf_index] = std::numeric_limits<float>::infinity();
    const DeviceBuffer<float> y_device = upload(y);

    const Verification v = reference.check(y_device.get(), tolerance);
    EXPECT_EQ(v.checked, count);
    EXPECT_EQ(v.mismatches, 3u);
    EXPECT_EQ(v.nonfinite, 2u);
    EXPECT_FALSE(v.passed());
    EXPECT_EQ(v.worst.row, int64_t(nan_index) / p.n);
    EXPECT_EQ(v.worst.col, int64_t(nan_index) % p.n);
    EXPECT_TRUE(std::isnan(v.worst.got));
    EXPECT_NEAR(v.max_abs, 1e-3, 1e-6);
    const Verification host = verify(y.data(), cpu_ref.data(), p.m, p.n, tolerance);
    EXPECT_EQ(host.mismatches, 3u);
    const std::vector<double> device_ref = reference.download();
    expect_same_figures(v, host, max_abs_difference(device_ref, cpu_ref));
    expect_identical(v, verify(y.data(), device_ref.data(), p.m, p.n, tolerance));
  }
}

TEST_P(DeviceReferenceTest, InputMagnitudeIsTheHosts) {
  MISH_REQUIRE_GPU();
  for (const Shape& s : kShapes) {
    const Problem p = test_shape(s.m, s.n, s.k, GetParam());
    SCOPED_TRACE(p.shape());
    const HostInputs inputs = generate_inputs(p);
    const DeviceBuffer<float> x = upload(inputs.x);
    DeviceReference reference(p, inputs, nullptr);
    reference.compute(x.get());
    const int64_t elements[][2] = {{0, 0}, {p.m - 1, p.n - 1}, {p.m / 2, p.n / 3}, {0, p.n - 1}};
    for (const auto& e : elements) {
      const double host =
          input_magnitude(inputs.x.data(), inputs.w.data(), inputs.b.data(), p.k, e[0], e[1]);
      const double device = reference.input_magnitude(x.get(), e[0], e[1]);
      EXPECT_GT(host, 0.0);
      EXPECT_LE(std::fabs(device - host), 1e-12 * host) << "element " << e[0] << ", " << e[1];
    }
    EXPECT_THROW(reference.input_magnitude(x.get(), p.m, 0), std::out_of_range);
    EXPECT_THROW(reference.input_magnitude(x.get(), 0, -1), std::out_of_range);
  }
}

INSTANTIATE_TEST_SUITE_P(Distributions, DeviceReferenceTest,
                         ::testing::Values(Distribution::kernelbench, Distribution::normal_unit),
                         distribution_param_name);

TEST(DeviceReference, RejectsInputsThatDoNotMatchTheProblem) {
  MISH_REQUIRE_GPU();
  const Problem p = test_shape(4, 8, 16);
  HostInputs inputs = generate_inputs(p);
  inputs.w.pop_back();
  EXPECT_THROW({ DeviceReference reference(p, inputs, nullptr); }, std::invalid_argument);
}

// y = 0 everywhere but a NaN and a later Inf past element 2^31 (k = 1 keeps the GEMM and the
// inputs small; the reference and y take about 26 GB): the check finds both and names the NaN's
// row and column. Skipped on a device with too little free memory.
TEST(DeviceReference, CheckIndexesPast2To31Elements) {
  MISH_REQUIRE_GPU();
  const Problem p = test_shape(65536, 32770, 1);
  const uint64_t count = p.y_count();
  ASSERT_GT(count, uint64_t(1) << 31);
  size_t free_bytes = 0, total_bytes = 0;
  MISH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const uint64_t needed = DeviceReference::bytes_needed(p) + count * sizeof(float) + p.x_count() * 4;
  if (free_bytes < needed + (uint64_t(1) << 30))
    GTEST_SKIP() << "needs " << needed << " bytes of device memory, " << free_bytes << " free";
  const HostInputs inputs = generate_inputs(p);
  const DeviceBuffer<float> x = upload(inputs.x);
  DeviceReference reference(p, inputs, nullptr);
  reference.compute(x.get());

  DeviceBuffer<float> y(count);
  MISH_CUDA_CHECK(cudaMemset(y.get(), 0, y.bytes()));
  const uint64_t nan_index = (uint64_t(1) << 31) + 12345, inf_index = count - 1;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  MISH_CUDA_CHECK(cudaMemcpy(y.get() + nan_index, &nan, sizeof(nan), cudaMemcpyHostToDevice));
  MISH_CUDA_CHECK(cudaMemcpy(y.get() + inf_index, &inf, sizeof(inf), cudaMemcpyHostToDevice));
  MISH_CUDA_CHECK(cudaDeviceSynchronize());

  const Verification v = reference.check(y.get(), Tolerance{});
  EXPECT_EQ(v.checked, count);
  EXPECT_EQ(v.nonfinite, 2u);
  EXPECT_GE(v.mismatches, 2u);
  EXPECT_EQ(v.worst.row, int64_t(nan_index) / p.n);
  EXPECT_EQ(v.worst.col, int64_t(nan_index) % p.n);
  EXPECT_TRUE(std::isnan(v.worst.got));
  EXPECT_GT(v.max_abs, 0.0);
}

}  // namespace
}  // namespace mish
