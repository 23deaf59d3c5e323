#include "report_fixture.h"

#include <random>

namespace mish {

using nlohmann::json;

std::vector<double> noisy_samples(double median_ms, uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> core(0.0, 0.005);  // 0.5% spread
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) {
    double v = median_ms * (1.0 + core(rng));
    if (unit(rng) < 0.05) v *= 1.0 + 0.1 * unit(rng);  // 5% outliers up to +10%
    samples.push_back(v);
  }
  return samples;
}

json make_report(const std::vector<double>& samples, const std::string& status,
                 const std::string& device) {
  const json problem = {
      {"m", 1024}, {"n", 8192}, {"k", 8192}, {"seed", 42}, {"distribution", "kernelbench"}};
  json result = {{"backend", "fused"},
                 {"problem", problem},
                 {"status", status},
                 {"reason", ""},
                 {"math_mode", "fp32"},
                 {"timing",
                  {{"samples_ms", samples},
                   {"median_ms", 0.0},
                   {"mean_ms", 0.0},
                   {"min_ms", 0.0},
                   {"max_ms", 0.0},
                   {"stdev_ms", 0.0}}},
                 {"verification",
                  {{"checked", 1},
                   {"mismatches", status == "ok" ? 0 : 5},
                   {"nonfinite", 0},
                   {"max_abs", 1e-6},
                   {"max_rel", 1e-6},
                   {"worst", json::object()}}}};
  return {{"schema_version", "1.0.0"},
          {"tool", {{"name", "mishbench"}}},
          {"argv", json::array()},
          {"timestamp", "2026-01-01T00:00:00Z"},
          {"host", json::object()},
          {"device", {{"name", device}}},
          {"settings", {{"l2", "flush"}, {"iters", 100}, {"warmup", 10}}},
          {"problems", json::array({problem})},
          {"results", json::array({result})}};
}

}  // namespace mish
