#include "core/dump/npy.h"

#include <fmt/format.h>

#include <filesystem>

#include "base/common/errors.h"
#include "base/io/output_file.h"

namespace mish {
namespace {

void write_array(const std::string& path, const char* descr, const void* data, size_t item_bytes,
                 const std::vector<uint64_t>& shape) {
  uint64_t count = 1;
  std::string dims;
  for (uint64_t d : shape) {
    count *= d;
    dims += fmt::format("{}, ", d);
  }
  // "(3,)" for 1-D, "(3, 4)" otherwise, as numpy writes them.
  if (!shape.empty()) dims.resize(dims.size() - (shape.size() == 1 ? 1 : 2));
  std::string header =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", descr, dims);
  // magic (6) + version (2) + header length (2) + header, padded with spaces to a multiple of 64.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');

  OutputFile out(path, "dump file");
  const uint16_t length = static_cast<uint16_t>(header.size());
  const char preamble[10] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0,
                             static_cast<char>(length & 0xff), static_cast<char>(length >> 8)};
  out.write(preamble, sizeof(preamble));
  out.write(header);
  out.write(data, count * item_bytes);
  out.commit();
}

}  // namespace

void write_npy(const std::string& path, const float* data, const std::vector<uint64_t>& shape) {
  write_array(path, "<f4", data, sizeof(float), shape);
}

void write_npy(const std::string& path, const double* data, const std::vector<uint64_t>& shape) {
  write_array(path, "<f8", data, sizeof(double), shape);
}

std::string dump_folder_name(const std::string& dir, const Problem& problem) {
  return (std::filesystem::path(dir) / fmt::format("{}-{}-seed{}", problem.shape(),
                                                   to_string(problem.distribution), problem.seed))
      .string();
}

std::string dump_folder(const std::string& dir, const Problem& problem) {
  const std::filesystem::path folder = dump_folder_name(dir, problem);
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error)
    throw UsageError(fmt::format("cannot create dump folder '{}': {}", folder.string(),
                                 error.message()));
  return folder.string();
}

std::string dump_file_name(const std::string& dir, const Problem& problem,
                           const std::string& name) {
  return (std::filesystem::path(dump_folder_name(dir, problem)) / (name + ".npy")).string();
}

std::string dump_path(const std::string& dir, const Problem& problem, const std::string& name) {
  dump_folder(dir, problem);
  return dump_file_name(dir, problem, name);
}

}  // namespace mish
