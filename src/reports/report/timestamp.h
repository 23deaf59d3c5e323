// The report's timestamp: the current UTC time as YYYY-MM-DDTHH:MM:SSZ.
#pragma once
#include <string>

namespace mish {

std::string utc_timestamp();

}  // namespace mish
