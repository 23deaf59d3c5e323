// Synthetic runs on several devices, made into reports by the real report writer: a node of
// H200s, each running `fused` at a median of its own (with GPU-like noise), and the host backend
// `cpu` once. For the tests of the report format, compare's device matching and merge.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/outcome/outcome.h"

namespace mish {

struct SyntheticNode {
  std::string hostname = "node-a";
  std::vector<double> fused_ms = {2.7, 2.7};  // one device per entry, CUDA indices 0, 1, ...
  uint64_t seed = 1;
  int uuid_base = 0;  // device d gets a UUID made from uuid_base + d: distinct cards, distinct ids
};

// "GPU-00000000-0000-4000-8000-0000000000NN" for card number `card`.
std::string synthetic_uuid(int card);

RunOutcome node_outcome(const SyntheticNode& node);

// build_report of node_outcome, dumped and parsed back as a reader would see it.
nlohmann::json node_report(const SyntheticNode& node);

}  // namespace mish
