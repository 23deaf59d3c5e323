// For tests of refusals: what the refusal says.
#pragma once
#include <string>

namespace mish {

// The message of the exception of type Error that `body` throws, or "" when it throws none.
template <typename Error, typename Body>
std::string thrown(Body body) {
  try {
    body();
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

}  // namespace mish
