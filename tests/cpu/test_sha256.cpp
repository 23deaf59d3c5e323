// SHA-256 against the FIPS 180-4 / NIST example vectors (empty, one block, two blocks, a million
// bytes), the padding boundaries around 56 and 64 bytes, any split of the input into updates,
// and a file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "backends/plugins/sha256.h"
#include "base/common/errors.h"

namespace mish {
namespace {

TEST(Sha256, NistVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 448 bits: the padding spills into a second block.
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // 896 bits: two full blocks of message.
  EXPECT_EQ(sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop"
                       "jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// 55 bytes is the longest message whose padding fits its block; 56 and 63 need a second block
// of padding, 64 fills its block exactly. (Digests from coreutils sha256sum.)
TEST(Sha256, PaddingBoundaries) {
  EXPECT_EQ(sha256_hex(std::string(55, 'a')),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(sha256_hex(std::string(56, 'a')),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(sha256_hex(std::string(63, 'a')),
            "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
  EXPECT_EQ(sha256_hex(std::string(64, 'a')),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(Sha256, AnySplitIntoUpdatesGivesTheSameDigest) {
  std::string message;
  for (int i = 0; i < 200; ++i) message += static_cast<char>(i * 37 + 11);
  const std::string whole = sha256_hex(message);
  for (size_t first = 0; first <= message.size(); first += 7)
    for (size_t second = first; second <= message.size(); second += 29) {
      Sha256 hash;
      hash.update(std::string_view(message).substr(0, first));
      hash.update(std::string_view(message).substr(first, second - first));
      hash.update(std::string_view(message).substr(second));
      ASSERT_EQ(to_hex(hash.finish()), whole) << first << " " << second;
    }
}

TEST(Sha256, FinishStartsANewMessage) {
  Sha256 hash;
  hash.update("abc");
  const Sha256::Digest first = hash.finish();
  hash.update("abc");
  EXPECT_EQ(hash.finish(), first);
}

TEST(Sha256, FileDigestMatchesItsContents) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("mish_sha256_" + std::to_string(::getpid()));
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(1000000, 'a');  // crosses the reader's 64 KiB chunks
  }
  EXPECT_EQ(sha256_file_hex(path.string()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  std::filesystem::remove(path);
  EXPECT_THROW(sha256_file_hex(path.string()), UsageError);
}

}  // namespace
}  // namespace mish
