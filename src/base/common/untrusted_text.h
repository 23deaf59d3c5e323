// Text that comes from outside (report fields, flag values, file names) made safe to echo: on a
// terminal no control character reaches it (an escape sequence could rewrite the screen, a newline
// could fake a line of output), in Markdown no character starts markup (a '|' or newline in a
// backend name would break the table or inject a heading), and a long string is shown as its
// first `limit` characters plus "… (N bytes)".
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace mish {

constexpr size_t kNameEchoLimit = 80;   // backend, device, distribution names, flag values
constexpr size_t kPathEchoLimit = 240;  // file names, which are longer in everyday use

// Control characters (C0, DEL, C1) and bidirectional overrides become escapes (\n, \t, \x1b,
// \u202e); a backslash becomes "\\" so that an escape cannot be faked; bytes that are not UTF-8
// become \xNN. Printable text, non-ASCII letters included, is kept.
std::string for_terminal(std::string_view text, size_t limit = kNameEchoLimit);

// The first `limit` characters of `text` plus "… (N bytes)" when it is longer, cut between
// characters (never inside a UTF-8 sequence), not escaped: for composing a message that is
// escaped as a whole later.
std::string shortened(std::string_view text, size_t limit = kNameEchoLimit);

// A message composed of parts already escaped with for_terminal, made safe to print as one line
// whatever a part that was not escaped holds: escaped as for_terminal does, except that a
// backslash is kept (it starts an escape made before, which must not be shown doubled).
std::string as_one_line(std::string_view message, size_t limit);

// A JSON value as JSON text in which every non-ASCII character is written \uXXXX (so no control
// character or bidirectional override is left to escape), cut after `limit` characters: to quote
// a value that a config file or an option gave.
std::string json_for_terminal(const nlohmann::json& value, size_t limit = kNameEchoLimit);

// for_terminal, and then Markdown punctuation is backslash-escaped (\|, \*, \`, \[, \#, ...) and
// '<', '>', '&' become HTML entities, so that the result is literal text inside a table cell.
std::string for_markdown(std::string_view text, size_t limit = kNameEchoLimit);

}  // namespace mish
