// --dump DIR: the problem's tensors and each backend's output as .npy files, for numpy and other
// tools, under DIR/<m>x<n>x<k>-<distribution>-seed<seed>/ with a problem.json describing them.
#pragma once
#include <string>
#include <vector>

#include "core/problem/problem_data.h"

namespace mish {

// x.npy, w.npy, b.npy, y_reference.npy and problem.json.
void dump_problem(const std::string& dir, const ProblemData& data);

// Every file the two calls below write for `problem` and these backends (nothing is created).
std::vector<std::string> dump_files(const std::string& dir, const Problem& problem,
                                    const std::vector<std::string>& backends);

// <name>.npy holding y [m, n].
void dump_array(const std::string& dir, const Problem& problem, const std::string& name,
                const std::vector<float>& y);

}  // namespace mish
