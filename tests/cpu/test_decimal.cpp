// Strict number parsing: decimal only, range-checked, NaN and infinity refused, and every
// refusal a UsageError that names what was parsed and quotes the text as given, on one line.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "base/common/decimal.h"
#include "base/common/errors.h"
#include "thrown.h"

namespace mish {
namespace {

TEST(Decimal, IntegersAreDecimalWithLeadingZerosAllowed) {
  EXPECT_EQ(parse_int("010", "--m"), 10);  // ten, not octal eight
  EXPECT_EQ(parse_int("0", "--m"), 0);
  EXPECT_EQ(parse_int("-3", "--m"), -3);
  EXPECT_EQ(parse_int("9223372036854775807", "--m"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(parse_int("-9223372036854775808", "--m"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(parse_uint("18446744073709551615", "--seed"), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(parse_uint("00042", "--seed"), 42u);
}

// A text parse_int refuses as an integer from 1 to 2147483647 (real false), or parse_real as a
// number from 0 to 1 (real true), and a fragment of what it says after "<what>: '<text>' ".
struct Refused {
  bool real;
  const char* text;
  const char* says;
};
struct Integer : Refused {
  Integer(const char* text, const char* says) : Refused{false, text, says} {}
};
struct Real : Refused {
  Real(const char* text, const char* says) : Refused{true, text, says} {}
};

class Refuses : public ::testing::TestWithParam<Refused> {};

TEST_P(Refuses, WithTheTextAndTheRange) {
  const Refused& r = GetParam();
  const std::string message = thrown<UsageError>([&] {
    if (r.real)
      parse_real(r.text, "--x", 0.0, 1.0);
    else
      parse_int(r.text, "--x", 1, 2147483647);
  });
  ASSERT_FALSE(message.empty()) << "accepted '" << r.text << "'";
  EXPECT_EQ(message.rfind("--x: '", 0), 0u) << message;
  EXPECT_NE(message.find(r.says), std::string::npos) << message;
  const char* range =
      r.real ? "expected a number from 0 to 1" : "expected an integer from 1 to 2147483647";
  EXPECT_NE(message.find(range), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Integers, Refuses,
    ::testing::Values(
        Integer{"", "is empty"}, Integer{"0x10", "is not a decimal integer"},
        Integer{"1e3", "is not a decimal integer"}, Integer{"1.0", "is not a decimal integer"},
        Integer{"+5", "is not a decimal integer"}, Integer{" 5", "is not a decimal integer"},
        Integer{"5 ", "is not a decimal integer"}, Integer{"5ms", "is not a decimal integer"},
        Integer{"1,000", "is not a decimal integer"}, Integer{"--5", "is not a decimal integer"},
        Integer{"-", "is not a decimal integer"}, Integer{"nan", "is not a decimal integer"},
        Integer{"0", "is out of range"}, Integer{"-1", "is out of range"},
        Integer{"2147483648", "is out of range"},
        Integer{"99999999999999999999", "is out of range"}));

TEST(Decimal, UnsignedRefusesNegativesAndWrapAround) {
  EXPECT_NE(thrown<UsageError>([] { parse_uint("-1", "--seed"); }).find("'-1' is negative"),
            std::string::npos);
  EXPECT_NE(
      thrown<UsageError>([] { parse_uint("18446744073709551616", "--seed"); }).find("out of range"),
      std::string::npos);
  EXPECT_NE(thrown<UsageError>([] { parse_uint("-0", "--seed"); }).find("is negative"),
            std::string::npos);
}

TEST(Decimal, RealsAreFiniteDecimals) {
  EXPECT_DOUBLE_EQ(parse_real("0.05", "--alpha"), 0.05);
  EXPECT_DOUBLE_EQ(parse_real(".5", "--alpha"), 0.5);
  EXPECT_DOUBLE_EQ(parse_real("5.", "--alpha"), 5.0);
  EXPECT_DOUBLE_EQ(parse_real("1e-4", "--atol"), 1e-4);
  EXPECT_DOUBLE_EQ(parse_real("1E+2", "--atol"), 100.0);
  EXPECT_DOUBLE_EQ(parse_real("010", "--atol"), 10.0);
  EXPECT_DOUBLE_EQ(parse_real("-2.5", "--x"), -2.5);
  EXPECT_FALSE(std::signbit(parse_real("-0", "--x", 0.0, 1.0)));  // -0 reads as 0
  EXPECT_DOUBLE_EQ(parse_real("1", "--alpha", 0.0, 1.0), 1.0);    // bounds are inclusive
  EXPECT_DOUBLE_EQ(parse_real("0", "--alpha", 0.0, 1.0), 0.0);
}

INSTANTIATE_TEST_SUITE_P(
    Reals, Refuses,
    ::testing::Values(
        Real{"", "is empty"}, Real{"nan", "is not a decimal number"},
        Real{"NaN", "is not a decimal number"}, Real{"-nan", "is not a decimal number"},
        Real{"inf", "is not a decimal number"}, Real{"-inf", "is not a decimal number"},
        Real{"infinity", "is not a decimal number"}, Real{"0x0.1", "is not a decimal number"},
        Real{"0x1p-3", "is not a decimal number"}, Real{"+0.5", "is not a decimal number"},
        Real{"0,5", "is not a decimal number"}, Real{".", "is not a decimal number"},
        Real{"1e", "is not a decimal number"}, Real{"1e+", "is not a decimal number"},
        Real{"e5", "is not a decimal number"}, Real{"0.5 ", "is not a decimal number"},
        Real{"0.5%", "is not a decimal number"}, Real{"1e999", "is beyond what a double holds"},
        Real{"-1e999", "is beyond what a double holds"},
        Real{"1e-999", "is beyond what a double holds"}, Real{"1.5", "is out of range"},
        Real{"-0.1", "is out of range"}, Real{"1.0000001", "is out of range"}));

TEST(Decimal, UnboundedRealSaysFinite) {
  EXPECT_NE(
      thrown<UsageError>([] { parse_real("inf", "--x"); }).find("expected a finite decimal number"),
      std::string::npos);
}

TEST(Decimal, AnExcludedMinimumIsOutOfRangeAndSaidSo) {
  EXPECT_DOUBLE_EQ(parse_real("1e-300", "--timeout", 0, 10, true), 1e-300);
  for (const char* text : {"0", "-0", "nan"}) {
    const std::string message =
        thrown<UsageError>([&] { parse_real(text, "--timeout", 0, 10, true); });
    EXPECT_NE(message.find("expected a number above 0 and at most 10"), std::string::npos)
        << message;
  }
}

TEST(Decimal, FractionsAreRealsBelowOneOrPercents) {
  EXPECT_DOUBLE_EQ(parse_fraction("0.005", "--max-noise"), 0.005);
  EXPECT_DOUBLE_EQ(parse_fraction("0.5%", "--max-noise"), 0.005);
  EXPECT_DOUBLE_EQ(parse_fraction("100%", "--max-noise"), 1.0);
  EXPECT_DOUBLE_EQ(parse_fraction("1e-3", "--max-noise"), 1e-3);
  EXPECT_DOUBLE_EQ(parse_fraction(".5%", "--max-noise"), 0.005);
  EXPECT_DOUBLE_EQ(parse_fraction("0.999", "--max-noise"), 0.999);
}

TEST(Decimal, AFractionThatLooksLikeAPercentSaysHowToWriteIt) {
  EXPECT_EQ(thrown<UsageError>([] { parse_fraction("1.5", "--max-noise"); }),
            "--max-noise: '1.5' reads as a percent, but this value is a fraction: write 1.5% for "
            "1.5 percent, or 0.015 as a fraction");
  for (const char* text : {"1", "5", "100"})
    EXPECT_NE(thrown<UsageError>([&] { parse_fraction(text, "--max-noise"); })
                  .find(std::string("write ") + text + "%"),
              std::string::npos)
        << text;
}

TEST(Decimal, AFractionOutsideItsRangeOrNotDecimalIsRefused) {
  const std::string range =
      "expected a fraction above 0 and below 1 (0.005) or a percent above 0% and at most 100% "
      "(0.5%)";
  for (const char* text : {"", "%", "0", "0%", "-1%", "100.5%", "250", "nan%", "5 %", "5%%",
                           "%5", "1e999%", "-0.5"}) {
    const std::string message = thrown<UsageError>([&] { parse_fraction(text, "--max-noise"); });
    EXPECT_EQ(message.rfind(std::string("--max-noise: '") + text + "' ", 0), 0u) << message;
    EXPECT_NE(message.find(range), std::string::npos) << message;
  }
}

TEST(Decimal, QuotedTextIsEscapedAndBounded) {
  const std::string message =
      thrown<UsageError>([] { parse_real("0.1\n# injected", "--alpha", 0, 1); });
  EXPECT_NE(message.find("'0.1\\n# injected'"), std::string::npos) << message;
  const std::string huge(1 << 20, '7');
  const std::string long_message = thrown<UsageError>([&] { parse_int(huge, "--m", 1, 10); });
  EXPECT_LT(long_message.size(), 300u);
  EXPECT_NE(long_message.find("(1048576 bytes)"), std::string::npos) << long_message;
}

}  // namespace
}  // namespace mish
