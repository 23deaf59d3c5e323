#include "base/common/untrusted_text.h"

#include <fmt/format.h>

#include <cstdint>

#include <nlohmann/json.hpp>

namespace mish {
namespace {

struct CodePoint {
  uint32_t value = 0;
  size_t bytes = 1;
  bool valid = false;  // false: a byte that does not start a well-formed UTF-8 sequence
};

// Decodes the UTF-8 sequence at text[at]; rejects overlong forms, surrogates and values above
// U+10FFFF, as a terminal would render them unpredictably.
CodePoint decode(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[at + i]); };
  const uint8_t lead = byte(0);
  if (lead < 0x80) return {lead, 1, true};
  size_t length = 0;
  uint32_t value = 0, smallest = 0;
  if ((lead & 0xe0) == 0xc0) {
    length = 2, value = lead & 0x1fu, smallest = 0x80;
  } else if ((lead & 0xf0) == 0xe0) {
    length = 3, value = lead & 0x0fu, smallest = 0x800;
  } else if ((lead & 0xf8) == 0xf0) {
    length = 4, value = lead & 0x07u, smallest = 0x10000;
  } else {
    return {lead, 1, false};
  }
  if (at + length > text.size()) return {lead, 1, false};
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xc0) != 0x80) return {lead, 1, false};
    value = value << 6 | (byte(i) & 0x3fu);
  }
  if (value < smallest || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
    return {lead, 1, false};
  return {value, length, true};
}

bool is_control(uint32_t c) { return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0); }

// Characters that reorder the text around them when displayed (U+202A..U+202E, U+2066..U+2069,
// the marks U+200E, U+200F, U+061C): shown as escapes so that what is printed reads as stored.
bool is_bidi_control(uint32_t c) {
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e ||
         c == 0x200f || c == 0x061c;
}

void append_escaped_control(std::string& out, uint32_t c) {
  switch (c) {
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      out += c < 0x80 ? fmt::format("\\x{:02x}", c) : fmt::format("\\u{:04x}", c);
  }
}

// Backslash escapes of CommonMark that matter inside a table cell: emphasis, code, links, tables,
// headings, strikethrough, GitHub's $math$; '<', '>' and '&' are turned into entities instead,
// which every renderer reads as text even where it passes HTML through.
bool append_markdown_punctuation(std::string& out, uint32_t c) {
  switch (c) {
    case '<':
      out += "&lt;";
      return true;
    case '>':
      out += "&gt;";
      return true;
    case '&':
      out += "&amp;";
      return true;
    case '|':
    case '*':
    case '_':
    case '`':
    case '[':
    case ']':
    case '#':
    case '~':
    case '!':
    case '(':
    case ')':
    case '$':
      out += '\\';
      out += static_cast<char>(c);
      return true;
    default:
      return false;
  }
}

enum class Escape { terminal, markdown, composed };

std::string escape(std::string_view text, size_t limit, Escape mode) {
  std::string out;
  size_t at = 0, shown = 0;
  for (; at < text.size() && shown < limit; ++shown) {
    const CodePoint c = decode(text, at);
    if (!c.valid) {
      out += fmt::format("\\x{:02x}", c.value);
    } else if (is_control(c.value) || is_bidi_control(c.value)) {
      append_escaped_control(out, c.value);
    } else if (c.value == '\\' && mode != Escape::composed) {
      out += "\\\\";
    } else if (!(mode == Escape::markdown && append_markdown_punctuation(out, c.value))) {
      out.append(text.substr(at, c.bytes));
    }
    at += c.bytes;
  }
  if (at < text.size()) out += fmt::format("… ({} bytes)", text.size());
  return out;
}

}  // namespace

std::string shortened(std::string_view text, size_t limit) {
  size_t at = 0;
  for (size_t shown = 0; at < text.size() && shown < limit; ++shown) at += decode(text, at).bytes;
  if (at == text.size()) return std::string(text);
  return fmt::format("{}… ({} bytes)", text.substr(0, at), text.size());
}

std::string for_terminal(std::string_view text, size_t limit) {
  return escape(text, limit, Escape::terminal);
}

std::string for_markdown(std::string_view text, size_t limit) {
  return escape(text, limit, Escape::markdown);
}

std::string json_for_terminal(const nlohmann::json& value, size_t limit) {
  return shortened(value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace), limit);
}

std::string as_one_line(std::string_view message, size_t limit) {
  return escape(message, limit, Escape::composed);
}

}  // namespace mish
