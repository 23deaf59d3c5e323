// The tensor-core backends on a real device: the split kernels agree bit for bit with the host
// functions, and each backend verifies (3xtf32, fp16x3) or stays within a loose bound (tf32, bf16)
// on small odd shapes, the default problem and the other input distributions; the epilogue reads
// the row-padded products those backends write when n is not a multiple of 8.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/cuda/device_arena.h"
#include "base/cuda/device_buffer.h"
#include "epilogue.cuh"
#include "gpu_test_support.h"
#include "run/runner.h"
#include "split.cuh"
#include "split_precision.cuh"

namespace mish {
namespace {

template <typename T>
std::vector<T> to_host(const DeviceBuffer<T>& buffer) {
  std::vector<T> host(buffer.size());
  MISH_CUDA_CHECK(cudaMemcpy(host.data(), buffer.get(), buffer.bytes(), cudaMemcpyDeviceToHost));
  return host;
}

template <typename T>
DeviceBuffer<T> to_device(const std::vector<T>& host) {
  DeviceBuffer<T> buffer(host.size());
  MISH_CUDA_CHECK(cudaMemcpy(buffer.get(), host.data(), buffer.bytes(), cudaMemcpyHostToDevice));
  return buffer;
}

template <typename T>
uint16_t bits16(T half) {
  uint16_t bits;
  std::memcpy(&bits, &half, sizeof(bits));
  return bits;
}

// Rows of random signed values whose magnitudes span `binades` binades below a random row scale;
// row 1 is all zero.
std::vector<float> random_rows(int64_t rows, int64_t cols, int binades, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> row_scale(-30, 30), offset(-binades, 0);
  std::vector<float> values(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    const int scale = row_scale(rng);
    for (int64_t c = 0; c < cols; ++c)
      values[r * cols + c] = r == 1 ? 0.0f
                                    : std::ldexp(mantissa(rng), scale + offset(rng)) *
                                          (rng() & 1 ? -1.0f : 1.0f);
  }
  return values;
}

TEST(SplitKernels, Tf32RowSplitMatchesHostBitForBitAndLeavesPaddingAlone) {
  MISH_REQUIRE_GPU();
  constexpr int64_t rows = 37, cols = 1001, segment = 1004, row_stride = 3 * segment + 8;
  constexpr int lo_segment = 1;
  const std::vector<float> values = random_rows(rows, cols, 40, 11);
  const DeviceBuffer<float> src = to_device(values);
  DeviceBuffer<float> dst(rows * row_stride);
  MISH_CUDA_CHECK(cudaMemset(dst.get(), 0x7b, dst.bytes()));
  launch_split_tf32_rows(src.get(), rows, cols, dst.get(), row_stride, segment, lo_segment,
                         nullptr);
  MISH_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = to_host(dst);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const Tf32Split s = split_tf32(values[r * cols + c]);
      for (int seg = 0; seg < kSplitSegments; ++seg)
        ASSERT_EQ(float_bits(got[r * row_stride + seg * segment + c]),
                  float_bits(seg == lo_segment ? round_to_tf32(s.lo) : s.hi))
            << "row " << r << " col " << c << " segment " << seg;
    }
    for (int64_t c = 0; c < row_stride; ++c)
      if (c % segment >= cols || c >= 3 * segment)
        ASSERT_EQ(float_bits(got[r * row_stride + c]), 0x7b7b7b7bu) << "padding written at " << c;
  }
}

TEST(SplitKernels, Bf16RoundingMatchesHostBitForBit) {
  MISH_REQUIRE_GPU();
  const std::vector<float> values = random_rows(13, 777, 40, 12);
  const DeviceBuffer<float> src = to_device(values);
  DeviceBuffer<__nv_bfloat16> dst(values.size());
  launch_round_to_bf16(src.get(), dst.get(), values.size(), nullptr);
  MISH_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<__nv_bfloat16> got = to_host(dst);
  for (size_t i = 0; i < values.size(); ++i)
    ASSERT_EQ(bits16(got[i]), bits16(__float2bfloat16_rn(values[i]))) << i;
}

TEST(SplitKernels, Fp16RowSplitMatchesHostBitForBitAndLeavesPaddingAlone) {
  MISH_REQUIRE_GPU();
  constexpr int64_t rows = 29, cols = 1001, segment = 1008, row_stride = 3 * segment + 16;
  constexpr int lo_segment = 1;
  const std::vector<float> values = random_rows(rows, cols, 12, 13);
  const DeviceBuffer<float> src = to_device(values);
  DeviceBuffer<__half> dst(rows * row_stride);
  DeviceBuffer<int> exponents(rows);
  MISH_CUDA_CHECK(cudaMemset(dst.get(), 0x7b, dst.bytes()));
  launch_split_fp16_rows(src.get(), rows, cols, dst.get(), row_stride, segment, lo_segment,
                         exponents.get(), nullptr);
  MISH_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<__half> got = to_host(dst);
  const std::vector<int> got_exponents = to_host(exponents);
  for (int64_t r = 0; r < rows; ++r) {
    float max_abs = 0.0f;
    for (int64_t c = 0; c < cols; ++c) max_abs = std::fmax(max_abs, std::fabs(values[r * cols + c]));
    const int e = fp16_row_scale_exponent(max_abs);
    ASSERT_EQ(got_exponents[r], e) << "row " << r;
    for (int64_t c = 0; c < cols; ++c) {
      const HalfSplit s = split_fp16(std::ldexp(values[r * cols + c], e));
      for (int seg = 0; seg < kSplitSegments; ++seg)
        ASSERT_EQ(bits16(got[r * row_stride + seg * segment + c]),
                  bits16(seg == lo_segment ? s.lo : s.hi))
            << "row " << r << " col " << c << " segment " << seg;
    }
    for (int64_t c = 0; c < row_stride; ++c)
      if (c % segment >= cols || c >= 3 * segment)
        ASSERT_EQ(bits16(got[r * row_stride + c]), 0x7b7b) << "padding written at " << c;
  }
  for (int64_t c = 0; c < 3 * segment; ++c)
    if (c % segment < cols) ASSERT_EQ(bits16(got[1 * row_stride + c]), 0) << "zero row, col " << c;
}

// The same partials, dense and in rows padded with NaN, give bit-identical outputs: the padding is
// never read and the rows are found at their stride.
TEST(SplitKernels, EpilogueReadsRowPaddedPartialsAndSkipsThePadding) {
  MISH_REQUIRE_GPU();
  constexpr int64_t rows = 37, cols = 131, chunks = 3;
  const int64_t padded_cols = padded_output_columns(cols);
  const std::vector<float> dense = random_rows(chunks * rows, cols, 8, 17);
  std::vector<float> padded(chunks * rows * padded_cols, std::numeric_limits<float>::quiet_NaN());
  for (int64_t r = 0; r < chunks * rows; ++r)
    std::copy_n(&dense[r * cols], cols, &padded[r * padded_cols]);
  std::vector<int> row_exponent(rows), col_exponent(cols);
  for (int64_t r = 0; r < rows; ++r) row_exponent[r] = int(r % 5) - 2;
  for (int64_t c = 0; c < cols; ++c) col_exponent[c] = int(c % 3);
  const std::vector<float> bias = random_rows(1, cols, 4, 19);
  const DeviceBuffer<float> dense_d = to_device(dense), padded_d = to_device(padded),
                            bias_d = to_device(bias);
  const DeviceBuffer<int> row_d = to_device(row_exponent), col_d = to_device(col_exponent);

  const auto epilogue_of = [&](const DeviceBuffer<float>& partials, int64_t row_stride) {
    EpilogueSource source;
    source.partials = partials.get();
    source.partial_count = chunks;
    source.partial_stride = rows * row_stride;
    source.row_stride = row_stride;
    source.row_exponent = row_d.get();
    source.col_exponent = col_d.get();
    DeviceBuffer<float> y(rows * cols);
    launch_epilogue(y.get(), source, bias_d.get(), rows, cols, kLayerMishCount, nullptr);
    MISH_CUDA_CHECK(cudaDeviceSynchronize());
    return to_host(y);
  };
  const std::vector<float> from_dense = epilogue_of(dense_d, cols);
  const std::vector<float> from_padded = epilogue_of(padded_d, padded_cols);
  for (int64_t i = 0; i < rows * cols; ++i) {
    ASSERT_TRUE(std::isfinite(from_padded[i])) << "padding read at element " << i;
    ASSERT_EQ(std::memcmp(&from_padded[i], &from_dense[i], sizeof(float)), 0)
        << "element " << i << ": " << from_padded[i] << " vs " << from_dense[i];
  }
}

TEST(SplitKernels, OutOfMemoryNamesTheBytesNeeded) {
  MISH_REQUIRE_GPU();
  DeviceArena arena;
  arena.reserve<char>(size_t(1) << 52);
  try {
    arena.allocate("fp16x3");
    FAIL() << "a 4 PiB allocation succeeded";
  } catch (const CudaError& error) {
    EXPECT_TRUE(error.out_of_memory());
    EXPECT_NE(std::string(error.what()).find("fp16x3 needs 4503599627370496 bytes"),
              std::string::npos)
        << error.what();
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

RunOutcome run_backends(const std::vector<std::string>& backends, const Problem& problem,
                        const nlohmann::json& options = nlohmann::json::object(),
                        bool include_prepack = false) {
  RunConfig config = short_run_config(backends, problem, options);
  config.execution.include_prepack = include_prepack;
  config.execution.l2 = L2Mode::hot;
  return run_builtin_backends(config);
}

const std::vector<std::string> kSplitBackends = {"tf32", "bf16", "3xtf32", "fp16x3"};

// 3xtf32 and fp16x3 verify; tf32 and bf16 may mismatch but stay finite and within `loose`.
void expect_frontier(const RunOutcome& outcome, double loose) {
  for (const BackendResult& r : outcome.runs.at(0).results) {
    SCOPED_TRACE(r.backend + " on " + outcome.runs[0].problem.shape() + ": " + r.reason);
    ASSERT_TRUE(r.verification.has_value());
    EXPECT_EQ(r.verification->nonfinite, 0u);
    if (r.expected_accuracy == Accuracy::fp32) {
      EXPECT_EQ(r.status, Status::ok);
    } else {
      EXPECT_TRUE(r.status == Status::ok || r.status == Status::mismatch);
      EXPECT_LT(r.verification->max_abs, loose);
    }
    EXPECT_EQ(r.prepack_ms.has_value(), r.backend != "tf32");
    EXPECT_GE(r.stats.count, 1);
  }
  EXPECT_FALSE(outcome.any_failure());
}

// The GEMMs of 3xtf32 and fp16x3 write rows of n rounded up to 8 floats.
void expect_output_row_stride(const RunOutcome& outcome, int64_t expected) {
  for (const BackendResult& r : outcome.runs.at(0).results)
    if (r.backend == "3xtf32" || r.backend == "fp16x3")
      EXPECT_EQ(r.details.at("output_row_stride"), expected) << r.backend;
}

TEST(SplitBackends, SmallOddShapes) {
  MISH_REQUIRE_GPU();
  for (const Problem& p :
       {test_shape(17, 33, 65), test_shape(127, 129, 255), test_shape(31, 66, 40)}) {
    const RunOutcome outcome = run_backends(kSplitBackends, p);
    expect_frontier(outcome, 5e-3);
    expect_output_row_stride(outcome, round_up(p.n, 8));
  }
}

TEST(SplitBackends, DefaultProblem) {
  MISH_REQUIRE_GPU();
  const RunOutcome outcome = run_backends(kSplitBackends, Problem{});
  expect_frontier(outcome, 5e-3);
  expect_output_row_stride(outcome, Problem{}.n);  // a multiple of 8: GEMM writes y directly
  for (const BackendResult& r : outcome.runs[0].results) {
    const uint64_t workspace = r.details.at("device_workspace_bytes");
    EXPECT_EQ(workspace > 0, r.backend != "tf32") << r.backend;
  }
}

TEST(SplitBackends, Fp16x3ChunkCountsVerify) {
  MISH_REQUIRE_GPU();
  for (int chunks : {1, 2, 3, 4, 7}) {
    const RunOutcome outcome =
        run_backends({"fp16x3"}, test_shape(127, 129, 255), {{"fp16x3", {{"chunks", chunks}}}});
    const BackendResult& r = outcome.runs[0].results.at(0);
    EXPECT_EQ(r.status, Status::ok) << chunks << " chunks: " << r.reason;
    EXPECT_EQ(r.details.at("chunks"), chunks);
  }
}

TEST(SplitBackends, OtherDistributionsStayFiniteAndZeroRowsGiveNoNaN) {
  MISH_REQUIRE_GPU();
  // wide has all-zero rows in x and W (every 64th, from row 1) and exact zeros elsewhere.
  for (Distribution dist : {Distribution::normal, Distribution::normal_unit, Distribution::wide}) {
    const RunOutcome outcome = run_backends(kSplitBackends, test_shape(127, 129, 255, dist));
    for (const BackendResult& r : outcome.runs[0].results) {
      SCOPED_TRACE(r.backend + " on " + to_string(dist) + ": " + r.reason);
      ASSERT_NE(r.status, Status::error);
      EXPECT_EQ(r.verification->nonfinite, 0u);
    }
  }
  // Short K: the split schemes are FP32-accurate on normal inputs too.
  const RunOutcome normal =
      run_backends({"3xtf32", "fp16x3"}, test_shape(127, 129, 255, Distribution::normal));
  for (const BackendResult& r : normal.runs[0].results) EXPECT_EQ(r.status, Status::ok) << r.reason;
}

TEST(SplitBackends, IncludePrepackStillVerifies) {
  MISH_REQUIRE_GPU();
  const RunOutcome outcome = run_backends({"bf16", "3xtf32", "fp16x3"}, test_shape(127, 129, 255),
                                          nlohmann::json::object(), true);
  EXPECT_TRUE(outcome.include_prepack);
  expect_frontier(outcome, 5e-3);
}

}  // namespace
}  // namespace mish
