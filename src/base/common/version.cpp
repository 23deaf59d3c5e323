#include "base/common/version.h"

namespace mish {

std::string tool_version() { return MISHBENCH_VERSION; }
std::string git_sha() { return MISHBENCH_GIT_SHA; }

}  // namespace mish
