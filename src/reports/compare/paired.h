// Statistics of paired measurements: one ratio NEW / BASE per pair of rounds run back to back
// (`mishbench ab`), so that drift and the card's power state, which move both members of a pair
// alike, cancel. Distribution-free: the interval from order statistics, p from a sign test.
#pragma once
#include <vector>

#include "reports/compare/significance.h"

namespace mish {

// Two-sided exact sign test: the probability, with every pair equally likely to go either way,
// of a split at least as uneven as `above` against `below` (ties are left out before).
double sign_test_p(int above, int below);

struct PairedRatio {
  RatioInterval ratio;  // the median of the ratios, and its 95% order-statistic interval
  double p_value = 1.0;  // sign test of the ratios against 1
};

// Of the per-pair ratios (at least one). Below 6 pairs no interval reaches 95% and it spans them
// all; below 8 the sign test cannot reach p < 0.01.
PairedRatio paired_ratio(const std::vector<double>& ratios);

}  // namespace mish
