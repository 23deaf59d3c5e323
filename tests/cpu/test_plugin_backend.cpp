// A plugin backend through mish::Backend, on the host plugins: the example computes the layer
// within the tolerance, and the honest test plugin's options, prepack, stages, write_output,
// describe and teardown reach the plugin; each misuse of the ABI becomes a BackendError (or a
// describe_error) that says which call failed and how.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backends/plugins/plugin_backend.h"
#include "backends/plugins/sha256.h"
#include "base/common/errors.h"
#include "core/problem/generator.h"
#include "core/reference/reference.h"
#include "core/verify/verify.h"

namespace mish {
namespace {

std::string test_plugin(const std::string& name) {
  return std::string(MISHBENCH_TEST_PLUGIN_DIR) + "/libmishtest_" + name + ".so";
}

std::unique_ptr<Backend> backend_named(const std::string& path, const std::string& name) {
  for (std::unique_ptr<Backend>& backend : load_plugin_backends(path))
    if (backend->name() == name) return std::move(backend);
  ADD_FAILURE() << "no backend " << name << " in " << path;
  return nullptr;
}

// One problem, its inputs and reference, and a poisoned host y.
class OnHost : public ::testing::Test {
 protected:
  void use(int64_t m, int64_t n, int64_t k) {
    problem.m = m, problem.n = n, problem.k = k;
    inputs = generate_inputs(problem);
    reference = compute_reference(problem, inputs);
    poison();
  }
  void poison() { y.assign(problem.y_count(), std::numeric_limits<float>::quiet_NaN()); }
  Tensors tensors() { return {inputs.x.data(), inputs.w.data(), inputs.b.data(), y.data()}; }
  Verification check() const {
    return verify(y.data(), reference.data(), problem.m, problem.n, Tolerance{});
  }
  void SetUp() override { use(17, 33, 65); }

  Problem problem;
  HostInputs inputs;
  std::vector<double> reference;
  std::vector<float> y;
};

std::string backend_error(const std::function<void()>& call) {
  try {
    call();
  } catch (const BackendError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no BackendError";
  return {};
}

using ExampleHostPlugin = OnHost;

TEST_F(ExampleHostPlugin, VerifiesOnOddAndEvenShapes) {
  for (const auto& [m, n, k] : {std::tuple{17, 33, 65}, {64, 256, 512}, {1, 1, 1}}) {
    use(m, n, k);
    const auto backend = backend_named(MISHBENCH_HOST_PLUGIN, "host-loops");
    ASSERT_TRUE(backend->supports(problem, nullptr).ok);
    backend->setup(problem, tensors(), nullptr);
    backend->run(tensors(), nullptr);
    const Verification v = check();
    EXPECT_TRUE(v.passed()) << problem.shape() << ": " << v.mismatches << " mismatches, max abs "
                            << v.max_abs;
  }
}

TEST_F(ExampleHostPlugin, DescribesItselfAndWhereItComesFrom) {
  const auto backend = backend_named(MISHBENCH_HOST_PLUGIN, "host-loops");
  EXPECT_EQ(backend->placement(), Placement::host);
  EXPECT_EQ(backend->expected_accuracy(), Accuracy::fp32);
  EXPECT_EQ(backend->math_mode(), "fp32");
  EXPECT_FALSE(backend->prepacks_weights());
  EXPECT_TRUE(backend->stages().empty());
  const BackendOrigin origin = backend->origin();
  EXPECT_EQ(origin.kind, "plugin");
  EXPECT_EQ(origin.path, std::filesystem::canonical(MISHBENCH_HOST_PLUGIN).string());
  EXPECT_EQ(origin.sha256, sha256_file_hex(MISHBENCH_HOST_PLUGIN));
  EXPECT_EQ(origin.abi_version, MISHBENCH_PLUGIN_ABI_VERSION);
  backend->setup(problem, tensors(), nullptr);
  EXPECT_EQ(backend->describe().at("accumulator"), "fp32");
}

TEST_F(ExampleHostPlugin, RefusesTheDefaultProblemWithAReason) {
  const Support support = backend_named(MISHBENCH_HOST_PLUGIN, "host-loops")->supports(Problem{},
                                                                                       nullptr);
  EXPECT_FALSE(support.ok);
  EXPECT_NE(support.reason.find("m*n*k is above 2^31"), std::string::npos) << support.reason;
}

TEST_F(ExampleHostPlugin, RejectsOptions) {
  const auto backend = backend_named(MISHBENCH_HOST_PLUGIN, "host-loops");
  backend->configure({{"tile", 8}});
  EXPECT_EQ(backend_error([&] { backend->setup(problem, tensors(), nullptr); }),
            "setup(): host-loops takes no options (got {\"tile\":8})");
}

// The device example without a GPU: it declines with its reason, and its calls that need no
// device work.
TEST(ExampleDevicePlugin, DeclinesWithoutAGpu) {
  const auto backend = backend_named(MISHBENCH_DEVICE_PLUGIN, "simt-tiled");
  EXPECT_EQ(backend->placement(), Placement::device);
  const Support support = backend->supports(Problem{}, nullptr);
  EXPECT_FALSE(support.ok);
  EXPECT_EQ(support.reason, "simt-tiled runs on a CUDA GPU and none is present");
  DeviceInfo h200;
  h200.name = "NVIDIA H200", h200.cc_major = 9, h200.sms = 132;
  EXPECT_TRUE(backend->supports(Problem{}, &h200).ok);
  Problem tall;
  tall.m = int64_t(1) << 30;
  EXPECT_EQ(backend->supports(tall, &h200).reason, "simt-tiled covers m with grid.y: m <= 8388480");
}

using HonestHostPlugin = OnHost;

TEST_F(HonestHostPlugin, OptionsPrepackAndRunReachThePlugin) {
  const auto backend = backend_named(test_plugin("honest_host"), "honest-host");
  backend->configure({{"label", "first try"}});
  backend->setup(problem, tensors(), nullptr);
  ASSERT_TRUE(backend->prepacks_weights());
  EXPECT_EQ(backend_error([&] { backend->run(tensors(), nullptr); }),
            "run(): called before prepack()");
  backend->prepack(tensors(), nullptr);
  backend->run(tensors(), nullptr);
  EXPECT_TRUE(check().passed());
  const nlohmann::json details = backend->describe();
  EXPECT_EQ(details.at("label"), "first try");
  EXPECT_EQ(details.at("runs"), 1);
}

TEST_F(HonestHostPlugin, UnknownOptionFailsSetupWithThePluginsMessage) {
  const auto backend = backend_named(test_plugin("honest_host"), "honest-host");
  backend->configure({{"unroll", 4}});
  EXPECT_EQ(backend_error([&] { backend->setup(problem, tensors(), nullptr); }),
            "setup(): unknown option 'unroll'; honest-host takes: label");
  EXPECT_THROW(backend->configure(nlohmann::json::array({1, 2})), UsageError);
}

TEST_F(HonestHostPlugin, StagesInOrderDoWhatRunDoes) {
  const auto backend = backend_named(test_plugin("honest_host"), "honest-host");
  backend->setup(problem, tensors(), nullptr);
  const std::vector<Stage> stages = backend->stages();
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(backend_error([&] { stages[0].enqueue(tensors(), nullptr); }),
            "run_stage(0, 'gemm'): called before prepack()");
  backend->prepack(tensors(), nullptr);
  EXPECT_EQ(stages[0].name, "gemm");
  EXPECT_EQ(stages[0].kind, StageKind::gemm);
  EXPECT_EQ(stages[0].bytes, 0.0);
  EXPECT_EQ(stages[1].name, "epilogue");
  EXPECT_EQ(stages[1].kind, StageKind::epilogue);
  EXPECT_EQ(stages[1].bytes, epilogue_bytes(problem, true));
  for (const Stage& stage : stages) stage.enqueue(tensors(), nullptr);
  EXPECT_TRUE(check().passed());
}

TEST_F(HonestHostPlugin, SupportsGivesThePluginsReason) {
  const auto backend = backend_named(test_plugin("honest_host"), "honest-host");
  EXPECT_TRUE(backend->supports(problem, nullptr).ok);
  const Support support = backend->supports(Problem{}, nullptr);
  EXPECT_FALSE(support.ok);
  EXPECT_EQ(support.reason, "honest-host computes with plain loops: m*n*k <= 2^30");
}

TEST_F(HonestHostPlugin, SecondSetupTearsDownTheFirstAndDestructionTheLast) {
  const auto first = backend_named(test_plugin("honest_host"), "honest-host");
  first->setup(problem, tensors(), nullptr);
  first->setup(problem, tensors(), nullptr);
  EXPECT_EQ(first->describe().at("live_instances"), 1);
  {
    const auto second = backend_named(test_plugin("honest_host"), "honest-host");
    second->setup(problem, tensors(), nullptr);
    EXPECT_EQ(first->describe().at("live_instances"), 2);
  }
  EXPECT_EQ(first->describe().at("live_instances"), 1);
}

TEST_F(HonestHostPlugin, WriteOutputFillsY) {
  const auto backend = backend_named(test_plugin("honest_host"), "honest-host-deferred");
  backend->setup(problem, tensors(), nullptr);
  backend->run(tensors(), nullptr);
  EXPECT_TRUE(std::all_of(y.begin(), y.end(), [](float v) { return std::isnan(v); }));
  backend->write_output(tensors(), nullptr);
  EXPECT_TRUE(check().passed());
}

TEST_F(HonestHostPlugin, KeepsItsLibraryLoaded) {
  std::shared_ptr<const PluginLibrary> library = load_plugin(test_plugin("honest_host"));
  const std::unique_ptr<Backend> backend = make_plugin_backend(library, 1);
  EXPECT_THROW(make_plugin_backend(library, 2), std::out_of_range);
  library.reset();
  backend->setup(problem, tensors(), nullptr);
  backend->run(tensors(), nullptr);
  backend->write_output(tensors(), nullptr);
  EXPECT_TRUE(check().passed());
}

TEST_F(HonestHostPlugin, CallsBeforeSetupAreTheToolsBug) {
  const auto backend = backend_named(test_plugin("honest_host"), "honest-host");
  EXPECT_THROW(backend->run(tensors(), nullptr), std::logic_error);
  EXPECT_EQ(backend->describe(), nlohmann::json::object());
}

using MisbehavingPlugin = OnHost;

TEST_F(MisbehavingPlugin, ErrorsCarryThePluginsMessage) {
  const auto backend = backend_named(test_plugin("error_message"), "error-message");
  backend->setup(problem, tensors(), nullptr);
  EXPECT_EQ(backend_error([&] { backend->run(tensors(), nullptr); }),
            "run(): the tile configuration does not fit this problem");
}

TEST_F(MisbehavingPlugin, BrokenCallsAreReportedAsSuch) {
  const std::string library = test_plugin("abi_misuse");
  const auto run_error = [&](const std::string& name) {
    const auto backend = backend_named(library, name);
    backend->setup(problem, tensors(), nullptr);
    return backend_error([&] { backend->run(tensors(), nullptr); });
  };
  EXPECT_EQ(run_error("error-silent"), "run(): failed without a message");
  // 4096 bytes without a NUL: cut at 4095.
  EXPECT_EQ(run_error("error-unterminated"), "run(): " + std::string(4095, 'x'));
  EXPECT_EQ(run_error("throws"),
            "run(): threw a C++ exception across the plugin ABI: thrown from run()");
  EXPECT_EQ(backend_error([&] {
              backend_named(library, "supports-bad-verdict")->supports(problem, nullptr);
            }),
            "supports(): returned 2; it must return 1 (supported) or 0 (not supported, with a "
            "reason)");
}

TEST_F(MisbehavingPlugin, DescribeThatIsNotAJsonObject) {
  const std::string library = test_plugin("abi_misuse");
  for (const auto& [name, complaint] :
       {std::pair{"describe-not-json", "describe() returned text that is not JSON"},
        {"describe-not-object", "describe() returned JSON that is not an object: [128, 128]"}}) {
    const auto backend = backend_named(library, name);
    backend->setup(problem, tensors(), nullptr);
    const nlohmann::json details = backend->describe();
    ASSERT_EQ(details.size(), 1u) << details;
    EXPECT_NE(details.at("describe_error").get<std::string>().find(complaint), std::string::npos)
        << details;
  }
}

using PlantedSlowdownPlugin = OnHost;

TEST_F(PlantedSlowdownPlugin, VerifiesAndAddsItsSpin) {
  const auto backend = backend_named(test_plugin("planted_slowdown_host"), "planted-slowdown-host");
  backend->configure({{"spin_us", 20000}});
  backend->setup(problem, tensors(), nullptr);
  const auto start = std::chrono::steady_clock::now();
  backend->run(tensors(), nullptr);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(20));
  EXPECT_TRUE(check().passed());
  EXPECT_EQ(backend->describe(), nlohmann::json({{"planted_slowdown", true}, {"spin_us", 20000}}));
}

TEST_F(PlantedSlowdownPlugin, SaysItIsPlantedAndTakesOnlyItsOption) {
  const auto host = backend_named(test_plugin("planted_slowdown_host"), "planted-slowdown-host");
  const auto device = backend_named(test_plugin("planted_slowdown"), "planted-slowdown");
  for (const Backend* backend : {host.get(), device.get()})
    EXPECT_NE(backend->summary().find("planted"), std::string::npos) << backend->summary();
  EXPECT_EQ(device->placement(), Placement::device);
  host->configure({{"spin_us", -1}});
  EXPECT_EQ(backend_error([&] { host->setup(problem, tensors(), nullptr); }),
            "setup(): takes one option, spin_us: microseconds from 0 to 1e6");
}

}  // namespace
}  // namespace mish
