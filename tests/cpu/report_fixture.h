// Synthetic mishbench reports for compare's tests: one `fused` result on the default problem,
// with GPU-like timing noise (a tight core plus occasional slow outliers).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mish {

std::vector<double> noisy_samples(double median_ms, uint64_t seed, int count = 100);

// A minimal report that passes check_report: schema 1.0.0, device `device`, one result.
nlohmann::json make_report(const std::vector<double>& samples, const std::string& status = "ok",
                           const std::string& device = "NVIDIA H200");

}  // namespace mish
