// Echoing untrusted text: no control character reaches a terminal, no character starts Markdown
// markup, and a long string is cut to its first characters plus its size.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "base/common/untrusted_text.h"

namespace mish {
namespace {

TEST(UntrustedText, PrintableTextIsKept) {
  EXPECT_EQ(for_terminal("fused"), "fused");
  EXPECT_EQ(for_terminal("NVIDIA H200 — 141 GB, µs"), "NVIDIA H200 — 141 GB, µs");
  EXPECT_EQ(for_markdown("normal-unit seed 42"), "normal-unit seed 42");
}

TEST(UntrustedText, ControlCharactersBecomeVisibleEscapes) {
  EXPECT_EQ(for_terminal("a\nb\r\tc"), "a\\nb\\r\\tc");
  EXPECT_EQ(for_terminal("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(for_terminal(std::string("nul\0byte", 8)), "nul\\x00byte");
  EXPECT_EQ(for_terminal("del\x7f"), "del\\x7f");
  EXPECT_EQ(for_terminal("c1\xc2\x9b"), "c1\\u009b");                // U+009B, the 8-bit CSI
  EXPECT_EQ(for_terminal("evil\xe2\x80\xaetxt"), "evil\\u202etxt");  // right-to-left override
  EXPECT_EQ(for_terminal("back\\slash"), "back\\\\slash");           // an escape cannot be faked
}

TEST(UntrustedText, ComposedMessagesKeepTheirEscapes) {
  const std::string message = "unknown backend '" + for_terminal("a\nb\\") + "'";
  EXPECT_EQ(as_one_line(message, 100), "unknown backend 'a\\nb\\\\'");  // not escaped again
  EXPECT_EQ(as_one_line("raw\nline\x1b", 100), "raw\\nline\\x1b");  // what was not, is
  EXPECT_EQ(as_one_line(std::string(10, 'x'), 4), "xxxx… (10 bytes)");
}

TEST(UntrustedText, JsonValuesAreQuotedAsAsciiJson) {
  EXPECT_EQ(json_for_terminal(nlohmann::json(std::string("a\0\xe2\x80\xae", 5))),
            "\"a\\u0000\\u202e\"");
  EXPECT_EQ(json_for_terminal(nlohmann::json(std::string("\xff"))), "\"\\ufffd\"");
  EXPECT_EQ(json_for_terminal(nlohmann::json(std::string(100, 'x')), 10),
            "\"xxxxxxxxx… (102 bytes)");
}

TEST(UntrustedText, BytesThatAreNotUtf8AreEscaped) {
  EXPECT_EQ(for_terminal("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(for_terminal("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(for_terminal("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a UTF-16 surrogate
  EXPECT_EQ(for_terminal("cut\xe2\x82"), "cut\\xe2\\x82");     // a sequence cut short
}

TEST(UntrustedText, MarkdownPunctuationIsEscaped) {
  EXPECT_EQ(for_markdown("a|b"), "a\\|b");
  EXPECT_EQ(for_markdown("# heading"), "\\# heading");
  EXPECT_EQ(for_markdown("`code` *em* _em_ ~~s~~"), "\\`code\\` \\*em\\* \\_em\\_ \\~\\~s\\~\\~");
  EXPECT_EQ(for_markdown("[link](http://x)"), "\\[link\\]\\(http://x\\)");
  EXPECT_EQ(for_markdown("<script>&amp;"), "&lt;script&gt;&amp;amp;");
  EXPECT_EQ(for_markdown("$x$"), "\\$x\\$");
  EXPECT_EQ(for_markdown("two\n# lines"), "two\\n\\# lines");
}

TEST(UntrustedText, LongTextIsCutWithItsSize) {
  const std::string name(50'000'000, 'x');
  const std::string shown = for_terminal(name);
  EXPECT_EQ(shown, std::string(kNameEchoLimit, 'x') + "… (50000000 bytes)");
  EXPECT_EQ(for_terminal("abcdef", 3), "abc… (6 bytes)");
  EXPECT_EQ(for_terminal("abc", 3), "abc");
  // Characters, not bytes, are counted, and a cut never splits one.
  EXPECT_EQ(shortened("ééé", 2), "éé… (6 bytes)");
  EXPECT_EQ(shortened("abc", 3), "abc");
}

}  // namespace
}  // namespace mish
