// Text that a plugin hands over (messages, names), made safe for the console and the report:
// a plugin's bytes may be anything, and one invalid UTF-8 byte would make the JSON report throw.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace mish {

// One line: control characters become spaces, invalid UTF-8 becomes U+FFFD, outer spaces go.
std::string one_line(std::string_view text);

// `text` for an error message: at most `limit` bytes of one_line(text), then "...".
std::string excerpt(std::string_view text, size_t limit = 60);

// Whether `text` is valid UTF-8.
bool is_utf8(std::string_view text);

}  // namespace mish
