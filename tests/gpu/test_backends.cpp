#include <gtest/gtest.h>

#include "gpu_test_support.h"

namespace mish {
namespace {

TEST(GpuBackends, Placeholder) { MISH_REQUIRE_GPU(); }

}  // namespace
}  // namespace mish
