// Device plugins through the Backend adapter: the example simt-tiled kernel verifies (every
// element at atol = rtol = 1e-4) on odd shapes that cut every tile, with vector and scalar loads
// and stores, and on the default problem; the honest device test plugin verifies; and the
// cheating device plugins cheat as they claim to (caught by the run's checks, tested there).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "backends/plugins/plugin_backend.h"
#include "base/cuda/device_buffer.h"
#include "core/problem/generator.h"
#include "core/reference/reference.h"
#include "core/verify/verify.h"
#include "gpu_test_support.h"

namespace mish {
namespace {

std::unique_ptr<Backend> plugin_backend(const std::string& path) {
  std::vector<std::unique_ptr<Backend>> backends = load_plugin_backends(path);
  EXPECT_EQ(backends.size(), 1u);
  return std::move(backends.at(0));
}

std::string test_plugin(const std::string& name) {
  return std::string(MISHBENCH_TEST_PLUGIN_DIR) + "/libmishtest_" + name + ".so";
}

// The problem's tensors on the device, each `offset` floats into its allocation (offset 1 makes
// every pointer misaligned for float4).
struct DeviceTensors {
  DeviceTensors(const Problem& problem, const HostInputs& inputs, size_t offset)
      : problem(problem), offset(offset), x(problem.x_count() + offset),
        w(problem.w_count() + offset), b(size_t(problem.n) + offset),
        y(problem.y_count() + offset) {
    upload(inputs);
  }
  void upload(const HostInputs& inputs) {
    const auto copy = [&](const DeviceBuffer<float>& to, const std::vector<float>& from) {
      MISH_CUDA_CHECK(cudaMemcpy(to.get() + offset, from.data(), from.size() * sizeof(float),
                                 cudaMemcpyHostToDevice));
    };
    copy(x, inputs.x);
    copy(w, inputs.w);
    copy(b, inputs.b);
  }
  Tensors tensors() const {
    return {x.get() + offset, w.get() + offset, b.get() + offset, y.get() + offset};
  }
  // Poisons y (NaN), runs `backend` once on `stream` and verifies y against `reference`.
  Verification run_and_verify(Backend& backend, const std::vector<double>& reference,
                              cudaStream_t stream) const {
    MISH_CUDA_CHECK(
        cudaMemsetAsync(y.get() + offset, 0xff, problem.y_count() * sizeof(float), stream));
    backend.run(tensors(), stream);
    backend.write_output(tensors(), stream);
    MISH_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<float> host(problem.y_count());
    MISH_CUDA_CHECK(cudaMemcpy(host.data(), y.get() + offset, host.size() * sizeof(float),
                               cudaMemcpyDeviceToHost));
    return verify(host.data(), reference.data(), problem.m, problem.n, Tolerance{});
  }
  std::vector<float> download_w() const {
    std::vector<float> host(problem.w_count());
    MISH_CUDA_CHECK(cudaMemcpy(host.data(), w.get() + offset, host.size() * sizeof(float),
                               cudaMemcpyDeviceToHost));
    return host;
  }

  Problem problem;
  size_t offset;
  DeviceBuffer<float> x, w, b, y;
};

struct SimtCase {
  Problem problem;
  size_t offset;
};

class SimtTiledPlugin : public ::testing::TestWithParam<SimtCase> {};

TEST_P(SimtTiledPlugin, VerifiesWithZeroMismatches) {
  MISH_REQUIRE_GPU();
  const Problem& problem = GetParam().problem;
  const HostInputs inputs = generate_inputs(problem);
  const std::vector<double> reference = compute_reference(problem, inputs);
  const DeviceTensors device(problem, inputs, GetParam().offset);
  const auto backend = plugin_backend(MISHBENCH_DEVICE_PLUGIN);
  const auto info = query_device();
  ASSERT_TRUE(backend->supports(problem, &*info).ok);
  backend->setup(problem, device.tensors(), nullptr);
  const Verification v = device.run_and_verify(*backend, reference, nullptr);
  EXPECT_EQ(v.checked, problem.y_count());
  EXPECT_EQ(v.mismatches, 0u) << "worst (" << v.worst.row << ", " << v.worst.col << "): got "
                              << v.worst.got << ", expected " << v.worst.expected;
  const nlohmann::json details = backend->describe();
  const bool aligned = GetParam().offset == 0;
  EXPECT_EQ(details.at("vector_loads"), aligned && problem.k % 4 == 0) << details;
  EXPECT_EQ(details.at("vector_stores"), aligned && problem.n % 4 == 0) << details;
  RecordProperty("max_abs", std::to_string(v.max_abs));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SimtTiledPlugin,
    ::testing::Values(SimtCase{test_shape(1, 1, 1), 0}, SimtCase{test_shape(17, 33, 65), 0},
                      SimtCase{test_shape(128, 128, 8), 0}, SimtCase{test_shape(127, 129, 255), 0},
                      SimtCase{test_shape(130, 260, 12), 0}, SimtCase{test_shape(130, 260, 12), 1},
                      SimtCase{test_shape(257, 384, 1030), 0},
                      SimtCase{test_shape(300, 515, 1031), 0}, SimtCase{Problem{}, 0}),
    [](const auto& info) {
      return info.param.problem.shape() + (info.param.offset != 0 ? "_misaligned" : "");
    });

// The honest device plugin verifies; the device-cache plugin verifies once and replays that
// answer for new x; the modifies-weights plugin verifies and changes W.
class DeviceTestPlugins : public ::testing::Test {
 protected:
  void SetUp() override {
    MISH_REQUIRE_GPU();
    inputs = generate_inputs(problem);
    reference = compute_reference(problem, inputs);
  }
  Problem problem = test_shape(37, 70, 129);
  HostInputs inputs;
  std::vector<double> reference;
};

TEST_F(DeviceTestPlugins, HonestDeviceVerifies) {
  const DeviceTensors device(problem, inputs, 0);
  const auto backend = plugin_backend(test_plugin("honest_device"));
  backend->setup(problem, device.tensors(), nullptr);
  EXPECT_TRUE(device.run_and_verify(*backend, reference, nullptr).passed());
}

TEST_F(DeviceTestPlugins, DeviceCacheReplaysItsFirstAnswer) {
  DeviceTensors device(problem, inputs, 0);
  const auto backend = plugin_backend(test_plugin("device_cache"));
  backend->setup(problem, device.tensors(), nullptr);
  MISH_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_TRUE(device.run_and_verify(*backend, reference, nullptr).passed());
  Problem other = problem;
  other.seed = problem.seed + 1;
  const HostInputs new_inputs = generate_inputs(other);
  device.upload(new_inputs);
  EXPECT_FALSE(device.run_and_verify(*backend, compute_reference(other, new_inputs), nullptr)
                   .passed());
}

TEST_F(DeviceTestPlugins, ModifiesWeightsChangesW) {
  const DeviceTensors device(problem, inputs, 0);
  const auto backend = plugin_backend(test_plugin("modifies_weights"));
  backend->setup(problem, device.tensors(), nullptr);
  EXPECT_TRUE(device.run_and_verify(*backend, reference, nullptr).passed());
  const std::vector<float> w = device.download_w();
  EXPECT_NE(std::memcmp(w.data(), inputs.w.data(), w.size() * sizeof(float)), 0);
}

}  // namespace
}  // namespace mish
