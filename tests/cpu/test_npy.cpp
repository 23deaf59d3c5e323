// The .npy writer behind --dump: a version 1.0 header numpy can parse, padded so the data starts on
// a 64-byte boundary, followed by the raw little-endian values.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/dump/npy.h"

namespace mish {
namespace {

class Npy : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() / ("mish_npy_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  static std::string read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }

  // Checks the preamble and returns the header dictionary; `data_offset` gets where data starts.
  static std::string parse_header(const std::string& file, size_t& data_offset) {
    EXPECT_EQ(file.substr(0, 6), "\x93NUMPY");
    EXPECT_EQ(file[6], 1);  // format version 1.0
    EXPECT_EQ(file[7], 0);
    const size_t length = size_t(uint8_t(file[8])) | size_t(uint8_t(file[9])) << 8;
    data_offset = 10 + length;
    EXPECT_EQ(data_offset % 64, 0u);
    const std::string header = file.substr(10, length);
    EXPECT_EQ(header.back(), '\n');
    return header.substr(0, header.find_last_not_of(" \n") + 1);
  }

  std::filesystem::path dir;
};

TEST_F(Npy, MatrixOfFloats) {
  const std::vector<float> values = {1.0f, -2.5f, 3.25f, 0.0f, 1e-30f, -1e30f};
  const auto path = dir / "m.npy";
  write_npy(path.string(), values.data(), {2, 3});
  const std::string file = read_bytes(path);
  size_t offset = 0;
  EXPECT_EQ(parse_header(file, offset), "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  ASSERT_EQ(file.size(), offset + values.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(file.data() + offset, values.data(), values.size() * sizeof(float)), 0);
}

TEST_F(Npy, VectorOfDoublesHasOneElementTuple) {
  const std::vector<double> values = {0.1, 0.2, 0.3, 0.4, 0.5};
  const auto path = dir / "v.npy";
  write_npy(path.string(), values.data(), {5});
  const std::string file = read_bytes(path);
  size_t offset = 0;
  EXPECT_EQ(parse_header(file, offset), "{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }");
  ASSERT_EQ(file.size(), offset + values.size() * sizeof(double));
  EXPECT_EQ(std::memcmp(file.data() + offset, values.data(), values.size() * sizeof(double)), 0);
}

TEST_F(Npy, PaddingHoldsForHeadersOfEveryLength) {
  // Row counts of 1 to 19 digits give 19 consecutive header lengths.
  for (uint64_t rows = 1; rows < 10'000'000'000'000'000'000u; rows *= 10) {
    const auto path = dir / "p.npy";
    const float value = 1.0f;
    write_npy(path.string(), &value, {rows, 0});
    size_t offset = 0;
    parse_header(read_bytes(path), offset);
  }
}

TEST_F(Npy, WritesNoPartialFileAndDumpPathNamesTheProblem) {
  Problem p;
  p.m = 3, p.n = 4, p.k = 5, p.seed = 7;
  const std::string path = dump_path(dir.string(), p, "x");
  EXPECT_EQ(std::filesystem::path(path), dir / "3x4x5-kernelbench-seed7" / "x.npy");
  const float values[15] = {};
  write_npy(path, values, {3, 5});
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir / "3x4x5-kernelbench-seed7"), {}), 1);
}

}  // namespace
}  // namespace mish
