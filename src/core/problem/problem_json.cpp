#include "core/problem/problem_json.h"

#include <string>

namespace mish {

nlohmann::json problem_json(const Problem& p) {
  return {{"m", p.m}, {"n", p.n}, {"k", p.k}, {"seed", p.seed},
          {"distribution", to_string(p.distribution)}};
}

Problem problem_from_json(const nlohmann::json& j) {
  Problem p;
  p.m = j.at("m").get<int64_t>();
  p.n = j.at("n").get<int64_t>();
  p.k = j.at("k").get<int64_t>();
  p.seed = j.at("seed").get<uint64_t>();
  p.distribution = parse_distribution(j.at("distribution").get<std::string>());
  return p;
}

}  // namespace mish
