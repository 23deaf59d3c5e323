// The one-line reason a verification failed, with what it says about the inputs.
#pragma once
#include <cstdint>
#include <string>

#include "core/verify/verify.h"

namespace mish {

// "<n> of <checked> elements outside atol rtol (...); worst at (r, c): got, expected; its error is
// E x 2^-24 of its input magnitude ..." for a failed verification of a problem with inner size k.
std::string explain_mismatch(const Verification& v, const Tolerance& tolerance, int64_t k);

}  // namespace mish
