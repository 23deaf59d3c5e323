#include "dump/dump.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "dump/npy.h"

namespace mish {

void dump_problem(const std::string& dir, const ProblemData& data) {
  const Problem& p = data.problem;
  const uint64_t m = p.m, n = p.n, k = p.k;
  write_npy(dump_path(dir, p, "x"), data.inputs.x.data(), {m, k});
  write_npy(dump_path(dir, p, "w"), data.inputs.w.data(), {n, k});
  write_npy(dump_path(dir, p, "b"), data.inputs.b.data(), {n});
  write_npy(dump_path(dir, p, "y_reference"), data.reference.data(), {m, n});
  // The problem itself, so other tools (numpy scripts) know what the arrays are.
  const nlohmann::json problem = {{"m", p.m}, {"n", p.n}, {"k", p.k}, {"seed", p.seed},
                                  {"distribution", to_string(p.distribution)}};
  std::ofstream(dump_folder(dir, p) + "/problem.json") << problem.dump(2) << '\n';
}

void dump_array(const std::string& dir, const Problem& problem, const std::string& name,
                const std::vector<float>& y) {
  write_npy(dump_path(dir, problem, name), y.data(), {uint64_t(problem.m), uint64_t(problem.n)});
}

}  // namespace mish
