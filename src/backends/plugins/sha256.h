// SHA-256 (FIPS 180-4), for recording which exact plugin or solution file a report measured.
// Hand-written because none of the project's dependencies provides a hash.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mish {

class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;

  Sha256();
  void update(const void* data, size_t size);
  void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
  // Pads, finishes and returns the digest; the object is then reset for a new message.
  Digest finish();

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> block_;
  size_t block_used_ = 0;
  uint64_t total_bytes_ = 0;
};

// Lower-case hex of a digest (64 characters).
std::string to_hex(const Sha256::Digest& digest);
std::string sha256_hex(std::string_view bytes);

// The hex digest of a file's contents; throws UsageError naming the file when it cannot be read.
std::string sha256_file_hex(const std::string& path);

}  // namespace mish
