#include <gtest/gtest.h>

#include "problem/generator.h"

namespace mish {
namespace {

TEST(Generator, SameSeedGivesIdenticalInputs) {
  Problem p;
  p.m = 17, p.n = 33, p.k = 65;
  const HostInputs a = generate_inputs(p);
  const HostInputs b = generate_inputs(p);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.w, b.w);
  EXPECT_EQ(a.b, b.b);
}

}  // namespace
}  // namespace mish
