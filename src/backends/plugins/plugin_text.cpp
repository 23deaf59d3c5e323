#include "backends/plugins/plugin_text.h"

#include <nlohmann/json.hpp>

namespace mish {

bool is_utf8(std::string_view text) {
  try {
    (void)nlohmann::json(std::string(text)).dump();  // the strict handler throws on bad UTF-8
    return true;
  } catch (const nlohmann::json::type_error&) {
    return false;
  }
}

std::string one_line(std::string_view text) {
  std::string line(text);
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  // Round-tripping through nlohmann's replacing serializer is its UTF-8 repair.
  const std::string quoted =
      nlohmann::json(line).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line = nlohmann::json::parse(quoted).get<std::string>();
  const size_t first = line.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  return line.substr(first, line.find_last_not_of(' ') - first + 1);
}

std::string excerpt(std::string_view text, size_t limit) {
  if (text.size() <= limit) return one_line(text);
  // Cut on a character boundary: back up over UTF-8 continuation bytes (10xxxxxx).
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;
  return one_line(text.substr(0, cut)) + "...";
}

}  // namespace mish
