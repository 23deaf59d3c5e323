#include "backends/plugins/sha256.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "base/common/errors.h"

namespace mish {
namespace {

// FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
// 64 primes.
constexpr uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// 5.3.3: the first 32 bits of the fractional parts of the square roots of the first 8 primes.
constexpr std::array<uint32_t, 8> kInitial = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                              0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

constexpr uint32_t rotr(uint32_t value, int bits) {
  return (value >> bits) | (value << (32 - bits));
}

}  // namespace

Sha256::Sha256() : state_(kInitial) {}

// 6.2.2: one 512-bit block.
void Sha256::compress(const uint8_t* block) {
  uint32_t schedule[64];
  for (int t = 0; t < 16; ++t)
    schedule[t] = uint32_t(block[4 * t]) << 24 | uint32_t(block[4 * t + 1]) << 16 |
                  uint32_t(block[4 * t + 2]) << 8 | uint32_t(block[4 * t + 3]);
  for (int t = 16; t < 64; ++t) {
    const uint32_t w15 = schedule[t - 15], w2 = schedule[t - 2];
    const uint32_t sigma0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3);
    const uint32_t sigma1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10);
    schedule[t] = sigma1 + schedule[t - 7] + sigma0 + schedule[t - 16];
  }
  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3], e = state_[4],
           f = state_[5], g = state_[6], h = state_[7];
  for (int t = 0; t < 64; ++t) {
    const uint32_t big_sigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const uint32_t choose = (e & f) ^ (~e & g);
    const uint32_t t1 = h + big_sigma1 + choose + kRound[t] + schedule[t];
    const uint32_t big_sigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
    const uint32_t t2 = big_sigma0 + majority;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state_[0] += a, state_[1] += b, state_[2] += c, state_[3] += d;
  state_[4] += e, state_[5] += f, state_[6] += g, state_[7] += h;
}

void Sha256::update(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  total_bytes_ += size;
  while (size > 0) {
    const size_t take = std::min(size, block_.size() - block_used_);
    std::memcpy(block_.data() + block_used_, bytes, take);
    block_used_ += take, bytes += take, size -= take;
    if (block_used_ == block_.size()) {
      compress(block_.data());
      block_used_ = 0;
    }
  }
}

// 5.1.1: a 1 bit, zeros up to 448 mod 512 bits, then the message length in bits, big-endian.
Sha256::Digest Sha256::finish() {
  const uint64_t bit_length = total_bytes_ * 8;
  const uint8_t one_bit = 0x80;
  update(&one_bit, 1);
  const uint8_t zero = 0;
  while (block_used_ != 56) update(&zero, 1);
  uint8_t length[8];
  for (int i = 0; i < 8; ++i) length[i] = uint8_t(bit_length >> (56 - 8 * i));
  update(length, sizeof length);
  Digest digest;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) digest[4 * i + j] = uint8_t(state_[i] >> (24 - 8 * j));
  *this = Sha256();
  return digest;
}

std::string to_hex(const Sha256::Digest& digest) {
  std::string hex;
  for (const uint8_t byte : digest) hex += fmt::format("{:02x}", byte);
  return hex;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 hash;
  hash.update(bytes);
  return to_hex(hash.finish());
}

std::string sha256_file_hex(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  Sha256 hash;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0)
    hash.update(buffer, static_cast<size_t>(in.gcount()));
  if (in.bad()) throw UsageError(fmt::format("error reading '{}'", path));
  return to_hex(hash.finish());
}

}  // namespace mish
