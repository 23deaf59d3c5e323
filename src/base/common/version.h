#pragma once
#include <string>

namespace mish {

std::string tool_version();  // project version from CMake
std::string git_sha();       // commit the binary was configured at, or "unknown"

}  // namespace mish
