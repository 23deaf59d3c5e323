#include "core/dump/dump.h"

#include <nlohmann/json.hpp>

#include "base/io/output_file.h"
#include "core/dump/npy.h"
#include "core/problem/problem_json.h"

namespace mish {

void dump_problem(const std::string& dir, const ProblemData& data) {
  const Problem& p = data.problem;
  const uint64_t m = p.m, n = p.n, k = p.k;
  write_npy(dump_path(dir, p, "x"), data.inputs.x.data(), {m, k});
  write_npy(dump_path(dir, p, "w"), data.inputs.w.data(), {n, k});
  write_npy(dump_path(dir, p, "b"), data.inputs.b.data(), {n});
  write_npy(dump_path(dir, p, "y_reference"), data.reference.data(), {m, n});
  // The problem itself, so other tools (numpy scripts) know what the arrays are.
  write_output_file(dump_folder(dir, p) + "/problem.json", "dump file",
                    problem_json(p).dump(2) + '\n');
}

std::vector<std::string> dump_files(const std::string& dir, const Problem& problem,
                                    const std::vector<std::string>& backends) {
  std::vector<std::string> files = {dump_folder_name(dir, problem) + "/problem.json"};
  for (const char* name : {"x", "w", "b", "y_reference"})
    files.push_back(dump_file_name(dir, problem, name));
  for (const std::string& backend : backends)
    files.push_back(dump_file_name(dir, problem, "y_" + backend));
  return files;
}

void dump_array(const std::string& dir, const Problem& problem, const std::string& name,
                const std::vector<float>& y) {
  write_npy(dump_path(dir, problem, name), y.data(), {uint64_t(problem.m), uint64_t(problem.n)});
}

}  // namespace mish
