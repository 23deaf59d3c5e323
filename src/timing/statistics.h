// Summary statistics of timing samples (milliseconds).
#pragma once
#include <vector>

namespace mish {

struct TimingStats {
  int count = 0;
  double median = 0, mean = 0, min = 0, max = 0, stdev = 0;
  double p5 = 0, p95 = 0;
  double iqr = 0;  // p75 - p25
};

// Linear interpolation between closest ranks (numpy's default), q in [0, 1]; `sorted` ascending.
double percentile(const std::vector<double>& sorted, double q);

TimingStats summarize(std::vector<double> samples);

}  // namespace mish
