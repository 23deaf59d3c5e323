// Verification catches planted faults (a small error, NaN, Inf, an unwritten element), points at
// the right element, and passes an exact copy; a mismatch's diagnosis names a W used
// untransposed on a square problem, and nothing else.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/reference/reference.h"
#include "core/verify/explain.h"
#include "core/verify/verify.h"

namespace mish {
namespace {

constexpr int64_t kRows = 37, kCols = 53;

// A reference whose values are exact floats around 0.5, and an exact fp32 copy of it.
class VerifyFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    ref.resize(kRows * kCols);
    for (size_t i = 0; i < ref.size(); ++i) ref[i] = 0.5 + double(float(int(i % 101) - 50) / 1024.0f);
    y.assign(ref.begin(), ref.end());
  }
  Verification check() const { return verify(y.data(), ref.data(), kRows, kCols, Tolerance{}); }
  static int64_t at(int64_t row, int64_t col) { return row * kCols + col; }

  std::vector<double> ref;
  std::vector<float> y;
};

TEST_F(VerifyFaults, ExactCopyPasses) {
  const Verification v = check();
  EXPECT_TRUE(v.passed());
  EXPECT_EQ(v.checked, uint64_t(kRows * kCols));
  EXPECT_EQ(v.mismatches, 0u);
  EXPECT_EQ(v.nonfinite, 0u);
  EXPECT_EQ(v.max_abs, 0.0);
  EXPECT_EQ(v.max_rel, 0.0);
}

TEST_F(VerifyFaults, OneElementOffBy2e4IsTheOnlyMismatch) {
  // Near 0.5 the allowance is 1e-4 + 1e-4 * 0.5 = 1.5e-4, so 2e-4 is out.
  ref[at(20, 31)] = 0.5;
  y[at(20, 31)] = float(0.5 + 2e-4);
  const Verification v = check();
  EXPECT_FALSE(v.passed());
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_EQ(v.nonfinite, 0u);
  EXPECT_EQ(v.worst.row, 20);
  EXPECT_EQ(v.worst.col, 31);
  EXPECT_EQ(v.worst.got, double(float(0.5 + 2e-4)));
  EXPECT_EQ(v.worst.expected, 0.5);
  EXPECT_NEAR(v.max_abs, 2e-4, 1e-7);
  EXPECT_NEAR(v.max_rel, 4e-4, 1e-6);
}

TEST_F(VerifyFaults, ErrorInsideTheToleranceStillPasses) {
  ref[at(5, 6)] = 0.5;
  y[at(5, 6)] = float(0.5 + 1.4e-4);
  const Verification v = check();
  EXPECT_TRUE(v.passed());
  EXPECT_NEAR(v.max_abs, 1.4e-4, 1e-7);
  EXPECT_EQ(v.worst.row, 5);
  EXPECT_EQ(v.worst.col, 6);
}

TEST_F(VerifyFaults, WorstElementIsTheFurthestOutside) {
  y[at(1, 2)] += 3e-4f;
  y[at(30, 50)] -= 9e-4f;
  y[at(36, 0)] += 5e-4f;
  const Verification v = check();
  EXPECT_EQ(v.mismatches, 3u);
  EXPECT_EQ(v.worst.row, 30);
  EXPECT_EQ(v.worst.col, 50);
  EXPECT_EQ(v.worst.got, double(y[at(30, 50)]));
  EXPECT_EQ(v.worst.expected, ref[at(30, 50)]);
}

struct NonFinite {
  const char* name;
  float value;
};

class VerifyNonFinite : public VerifyFaults, public ::testing::WithParamInterface<NonFinite> {};

TEST_P(VerifyNonFinite, IsAMismatchAtItsPlace) {
  y[at(11, 52)] = GetParam().value;
  const Verification v = check();
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_EQ(v.nonfinite, 1u);
  EXPECT_EQ(v.worst.row, 11);
  EXPECT_EQ(v.worst.col, 52);
  EXPECT_EQ(v.max_abs, 0.0);  // statistics are over finite elements only
}

INSTANTIATE_TEST_SUITE_P(
    Values, VerifyNonFinite,
    ::testing::Values(NonFinite{"nan", std::numeric_limits<float>::quiet_NaN()},
                      NonFinite{"inf", std::numeric_limits<float>::infinity()},
                      NonFinite{"minus_inf", -std::numeric_limits<float>::infinity()}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(VerifyFaults, UnwrittenElementOfPoisonedOutputIsCaught) {
  // What the runner does: fill y with 0xff bytes (a NaN), then let the backend write. Here the
  // "backend" forgets one element.
  std::vector<float> written(y.size());
  std::memset(written.data(), 0xff, written.size() * sizeof(float));
  const int64_t forgotten = at(36, 52);  // the last element: a classic off-by-one
  for (int64_t i = 0; i < forgotten; ++i) written[i] = y[i];
  y = written;
  const Verification v = check();
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_EQ(v.nonfinite, 1u);
  EXPECT_EQ(v.worst.row, 36);
  EXPECT_EQ(v.worst.col, 52);
}

TEST(Verify, ZeroToleranceAcceptsExactZerosAndNothingElse) {
  const std::vector<double> ref = {0.0, 1.0, -2.0, 0.0};
  std::vector<float> y = {0.0f, 1.0f, -2.0f, -0.0f};
  const Tolerance exact{0.0, 0.0};
  EXPECT_TRUE(verify(y.data(), ref.data(), 2, 2, exact).passed());
  y[1] = std::nextafter(1.0f, 2.0f);
  const Verification v = verify(y.data(), ref.data(), 2, 2, exact);
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_EQ(v.worst.row, 0);
  EXPECT_EQ(v.worst.col, 1);
}

TEST(Verify, EmptyOutputDoesNotPass) {
  const Verification v = verify(nullptr, nullptr, 0, 5, Tolerance{});
  EXPECT_EQ(v.checked, 0u);
  EXPECT_FALSE(v.passed());
}

// y = mish(mish(x·W' + b)) for x [m, k] and W' [n, k] in float64, rounded to float; W' is W, or
// W [n, k] read as [k, n] when `untransposed` (square problems only).
std::vector<float> layer_output(const std::vector<float>& x, const std::vector<float>& w,
                                const std::vector<float>& b, int64_t m, int64_t n, int64_t k,
                                bool untransposed) {
  std::vector<float> y(m * n);
  for (int64_t r = 0; r < m; ++r)
    for (int64_t c = 0; c < n; ++c) {
      double sum = b[c];
      for (int64_t i = 0; i < k; ++i)
        sum += double(x[r * k + i]) * double(untransposed ? w[i * n + c] : w[c * k + i]);
      y[r * n + c] = float(mish_double(mish_double(sum)));
    }
  return y;
}

// Inputs of a problem: x, W, b with varied values of either sign.
struct DiagnosisInputs {
  DiagnosisInputs(int64_t m_, int64_t n_, int64_t k_) : m(m_), n(n_), k(k_) {
    for (int64_t i = 0; i < m * k; ++i) x.push_back(float(std::sin(0.7 * i)));
    for (int64_t i = 0; i < n * k; ++i) w.push_back(float(std::cos(1.3 * i + 0.2)) / 4.0f);
    for (int64_t i = 0; i < n; ++i) b.push_back(float(std::sin(2.1 * i)) / 8.0f);
  }
  std::string diagnose(const std::vector<float>& y) const {
    return diagnose_mismatch(x.data(), w.data(), b.data(), y.data(), m, n, k, Tolerance{});
  }
  int64_t m, n, k;
  std::vector<float> x, w, b;
};

TEST(Diagnosis, AnOutputOfWUntransposedOnASquareProblemIsNamed) {
  const DiagnosisInputs in(40, 24, 24);
  const std::string said = in.diagnose(layer_output(in.x, in.w, in.b, 40, 24, 24, true));
  EXPECT_EQ(said.rfind("the output matches W used untransposed: on 256 sampled elements it is "
                       "within ", 0),
            0u)
      << said;
  EXPECT_NE(said.find("MISHBENCH_WEIGHT_LAYOUT = \"kn\""), std::string::npos) << said;
  // Sampled all: a problem smaller than the sample.
  const DiagnosisInputs small(3, 5, 5);
  EXPECT_NE(small.diagnose(layer_output(small.x, small.w, small.b, 3, 5, 5, true))
                .find("on 15 sampled elements"),
            std::string::npos);
}

TEST(Diagnosis, NothingIsSaidOfOtherOutputs) {
  const DiagnosisInputs in(40, 24, 24);
  // The right answer, and a wrong one of another kind (the bias left out).
  EXPECT_EQ(in.diagnose(layer_output(in.x, in.w, in.b, 40, 24, 24, false)), "");
  const std::vector<float> no_bias(24, 0.0f);
  EXPECT_EQ(in.diagnose(layer_output(in.x, in.w, no_bias, 40, 24, 24, false)), "");
  // Untransposed but with a NaN in the sample: nothing can be told.
  std::vector<float> y = layer_output(in.x, in.w, in.b, 40, 24, 24, true);
  y[0] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(in.diagnose(y), "");
  // On a problem that is not square W cannot be read as [K, N] by mistake.
  const DiagnosisInputs wide(8, 16, 32);
  EXPECT_EQ(wide.diagnose(std::vector<float>(8 * 16, 0.0f)), "");
}

}  // namespace
}  // namespace mish
