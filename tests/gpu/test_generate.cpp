// The device generator (kernels/generate.cu) reproduces the host generator bit for bit, for every
// distribution and tensor, on an odd shape and on one large enough for the grid-stride loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "../distribution_param_name.h"
#include "base/cuda/device_buffer.h"
#include "core/problem/generate_device.cuh"
#include "core/problem/generator.h"
#include "gpu_test_support.h"

namespace mish {
namespace {

class DeviceGenerator : public ::testing::TestWithParam<Distribution> {};

TEST_P(DeviceGenerator, MatchesHostBitForBit) {
  MISH_REQUIRE_GPU();
  Problem odd;
  odd.m = 130, odd.n = 67, odd.k = 129, odd.seed = 12345;  // rows 1, 65, 129 are `wide`'s zero rows
  Problem large;
  large.m = 16, large.n = 2 << 20, large.k = 9;  // W: 18.9 M elements, more than one grid's worth
  for (Problem p : {odd, large}) {
    p.distribution = GetParam();
    for (const Tensor tensor : {Tensor::x, Tensor::w, Tensor::b}) {
      const uint64_t count = tensor == Tensor::x ? p.x_count() : tensor == Tensor::w ? p.w_count() : p.n;
      const uint64_t row_length = tensor == Tensor::b ? p.n : p.k;
      SCOPED_TRACE(p.shape() + " tensor " + std::to_string(static_cast<int>(tensor)));
      std::vector<float> host(count), from_device(count);
      generate_tensor(p, tensor, host.data(), count);
      DeviceBuffer<float> buffer(count);
      generate_on_device(p.distribution, p.seed, tensor, buffer.get(), count, row_length,
                         p.init_bound(), nullptr);
      MISH_CUDA_CHECK(cudaMemcpy(from_device.data(), buffer.get(), buffer.bytes(),
                                 cudaMemcpyDeviceToHost));
      if (std::memcmp(host.data(), from_device.data(), buffer.bytes()) != 0) {
        size_t i = 0;
        while (std::memcmp(&host[i], &from_device[i], sizeof(float)) == 0) ++i;
        ADD_FAILURE() << "first difference at element " << i << ": host " << host[i]
                      << ", device " << from_device[i];
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllDistributions, DeviceGenerator, kAllDistributions,
                         distribution_param_name);

}  // namespace
}  // namespace mish
