// Strict parsing of numbers given as text (flag values, config keys): decimal only, range-checked,
// every refusal a UsageError whose message names what was parsed and quotes the text as given.
//
// Accepted:
//   integers  -?[0-9]+                                  (parse_uint: no '-')
//   reals     -?([0-9]+(.[0-9]*)?|.[0-9]+)([eE][+-]?[0-9]+)?
// Leading zeros are decimal ("010" is ten, never octal). Refused: empty text, white space
// anywhere, a leading '+', hex ("0x10", "0x1p-3"), "nan", "inf", "infinity", digit group
// separators, trailing characters ("5ms"), and values outside [min, max] (a real that a double
// cannot hold, such as 1e999, is outside every range).
//
// Fractions (parse_fraction) are reals below 1, or percents: a real followed by '%'.
#pragma once
#include <cstdint>
#include <limits>
#include <string_view>

namespace mish {

// Messages read "<what>: '<text>' is not a decimal integer; expected an integer from <min> to
// <max>" (or "... is out of range; ..."); `what` is e.g. "--seed" or "configs/a.json: iters".
int64_t parse_int(std::string_view text, std::string_view what,
                  int64_t min = std::numeric_limits<int64_t>::min(),
                  int64_t max = std::numeric_limits<int64_t>::max());
uint64_t parse_uint(std::string_view text, std::string_view what, uint64_t min = 0,
                    uint64_t max = std::numeric_limits<uint64_t>::max());
// The result is finite; -0 is read as 0. With `min_excluded`, `min` itself is out of range
// ("expected a number above <min> and at most <max>").
double parse_real(std::string_view text, std::string_view what,
                  double min = std::numeric_limits<double>::lowest(),
                  double max = std::numeric_limits<double>::max(), bool min_excluded = false);
// A fraction in (0, 1], written as a real below 1 ("0.005") or as a percent ("0.5%", "100%"),
// returned as a fraction (0.005). A real from 1 to 100 without '%' looks like a percent (as
// nvbench's --max-noise takes it) and is refused with how to write it, never read as 100 times
// the value meant.
double parse_fraction(std::string_view text, std::string_view what);

}  // namespace mish
