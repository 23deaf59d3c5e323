// Writes arrays as NumPy .npy files (format 1.0, little-endian, C order) for `--dump`.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/problem/problem.h"

namespace mish {

void write_npy(const std::string& path, const float* data, const std::vector<uint64_t>& shape);
void write_npy(const std::string& path, const double* data, const std::vector<uint64_t>& shape);

// DIR/<m>x<n>x<k>-<distribution>-seed<seed>: the folder named, and the folder created if missing.
std::string dump_folder_name(const std::string& dir, const Problem& problem);
std::string dump_folder(const std::string& dir, const Problem& problem);

// <dump_folder>/<name>.npy: the file named, and its path once its folder is created.
std::string dump_file_name(const std::string& dir, const Problem& problem, const std::string& name);
std::string dump_path(const std::string& dir, const Problem& problem, const std::string& name);

}  // namespace mish
