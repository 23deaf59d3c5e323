#include "base/common/decimal.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>

#include "base/common/errors.h"
#include "base/common/untrusted_text.h"

namespace mish {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Skips a run of digits from `at`; returns how many there were.
size_t skip_digits(std::string_view text, size_t& at) {
  const size_t start = at;
  while (at < text.size() && is_digit(text[at])) ++at;
  return at - start;
}

bool is_decimal_integer(std::string_view text, bool allow_minus) {
  size_t at = allow_minus && !text.empty() && text[0] == '-' ? 1 : 0;
  return skip_digits(text, at) > 0 && at == text.size();
}

bool is_decimal_real(std::string_view text) {
  size_t at = !text.empty() && text[0] == '-' ? 1 : 0;
  size_t mantissa_digits = skip_digits(text, at);
  if (at < text.size() && text[at] == '.') {
    ++at;
    mantissa_digits += skip_digits(text, at);
  }
  if (mantissa_digits == 0) return false;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
    if (skip_digits(text, at) == 0) return false;
  }
  return at == text.size();
}

[[noreturn]] void refuse(std::string_view text, std::string_view what, std::string_view problem,
                         const std::string& expected) {
  throw UsageError(
      fmt::format("{}: '{}' {}; expected {}", what, for_terminal(text), problem, expected));
}

template <typename Integer>
Integer parse_integer(std::string_view text, std::string_view what, Integer min, Integer max) {
  const std::string expected = fmt::format("an integer from {} to {}", min, max);
  if (text.empty()) refuse(text, what, "is empty", expected);
  if (!is_decimal_integer(text, std::numeric_limits<Integer>::is_signed)) {
    if (!std::numeric_limits<Integer>::is_signed && is_decimal_integer(text, true))
      refuse(text, what, "is negative", expected);
    refuse(text, what, "is not a decimal integer", expected);
  }
  Integer value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range || value < min || value > max)
    refuse(text, what, "is out of range", expected);
  if (error != std::errc() || end != text.data() + text.size())
    refuse(text, what, "is not a decimal integer", expected);
  return value;
}

// The decimal `number` (all of `text`, or `text` without a unit), finite; messages quote `text`.
double read_real(std::string_view text, std::string_view number, std::string_view what,
                 const std::string& expected) {
  if (text.empty()) refuse(text, what, "is empty", expected);
  if (!is_decimal_real(number)) refuse(text, what, "is not a decimal number", expected);
  double value = 0.0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error == std::errc::result_out_of_range)
    refuse(text, what, "is beyond what a double holds (about 2.2e-308 to 1.8e308)", expected);
  if (error != std::errc() || end != number.data() + number.size() || !std::isfinite(value))
    refuse(text, what, "is not a decimal number", expected);
  return value == 0.0 ? 0.0 : value;  // -0 reads as 0
}

}  // namespace

int64_t parse_int(std::string_view text, std::string_view what, int64_t min, int64_t max) {
  return parse_integer<int64_t>(text, what, min, max);
}

uint64_t parse_uint(std::string_view text, std::string_view what, uint64_t min, uint64_t max) {
  return parse_integer<uint64_t>(text, what, min, max);
}

double parse_real(std::string_view text, std::string_view what, double min, double max,
                  bool min_excluded) {
  const bool unbounded =
      min == std::numeric_limits<double>::lowest() && max == std::numeric_limits<double>::max();
  const std::string expected =
      unbounded      ? "a finite decimal number"
      : min_excluded ? fmt::format("a number above {} and at most {}", min, max)
                     : fmt::format("a number from {} to {}", min, max);
  const double value = read_real(text, text, what, expected);
  if (value < min || (min_excluded && value == min) || value > max)
    refuse(text, what, "is out of range", expected);
  return value;
}

double parse_fraction(std::string_view text, std::string_view what) {
  const std::string expected =
      "a fraction above 0 and below 1 (0.005) or a percent above 0% and at most 100% (0.5%)";
  const bool percent = !text.empty() && text.back() == '%';
  const double value =
      read_real(text, percent ? text.substr(0, text.size() - 1) : text, what, expected);
  if (percent) {
    if (value <= 0 || value > 100) refuse(text, what, "is out of range", expected);
    return value / 100;
  }
  if (value >= 1 && value <= 100)
    throw UsageError(fmt::format("{}: '{}' reads as a percent, but this value is a fraction: "
                                 "write {}% for {} percent, or {:g} as a fraction",
                                 what, for_terminal(text), for_terminal(text), for_terminal(text),
                                 value / 100));
  if (value <= 0 || value > 1) refuse(text, what, "is out of range", expected);
  return value;
}

}  // namespace mish
