// Shared by GPU tests: skip cleanly (with the reason) when no CUDA device is usable.
#pragma once
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/builtin/registry.h"
#include "base/cuda/cuda_check.cuh"
#include "base/cuda/device_buffer.h"
#include "base/env/environment.h"
#include "core/problem/generate_device.cuh"
#include "run/runner.h"

namespace mish {

// Runs the built-in backends that `config.backends` names, as the command line would.
inline RunOutcome run_builtin_backends(const RunConfig& config) {
  return run_benchmark(config, select_backends(builtin_backends(), config.backends));
}

inline Problem test_shape(int64_t m, int64_t n, int64_t k,
                          Distribution distribution = Distribution::kernelbench,
                          uint64_t seed = Problem{}.seed) {
  Problem p;
  p.m = m, p.n = n, p.k = k, p.distribution = distribution, p.seed = seed;
  return p;
}

// A short, quiet run (one warm-up, two samples) of built-in backends on one problem, with
// backend options by backend name ({"wgmma": {"slices": 3}}).
inline RunConfig short_run_config(const std::vector<std::string>& backends, const Problem& problem,
                                  const nlohmann::json& options = nlohmann::json::object()) {
  RunConfig config;
  config.problems = {problem};
  config.backends = backends;
  config.backend_options = options;
  config.sampling.warmup = 1;
  config.sampling.iters = 2;
  config.quiet = true;
  return config;
}

// The results of that short run.
inline std::vector<BackendResult> short_run(
    const std::vector<std::string>& backends, const Problem& problem,
    const nlohmann::json& options = nlohmann::json::object()) {
  return run_builtin_backends(short_run_config(backends, problem, options)).runs.at(0).results;
}

// A finished run with every element checked and none off.
inline void expect_verified(const BackendResult& r, const Problem& p) {
  EXPECT_EQ(r.status, Status::ok) << p.shape() << ": " << r.reason;
  ASSERT_TRUE(r.verification.has_value()) << p.shape();
  EXPECT_EQ(r.verification->checked, p.y_count()) << p.shape();
  EXPECT_EQ(r.verification->mismatches, 0u) << p.shape();
  EXPECT_EQ(r.verification->nonfinite, 0u) << p.shape();
}

// Outputs of one backend run repeatedly on the same inputs: two instances, the first run twice,
// the output poisoned before each run; `details` holds each instance's describe().
struct RepeatedOutputs {
  std::vector<std::vector<float>> outputs;
  std::vector<nlohmann::json> details;
};

inline RepeatedOutputs repeated_outputs(const std::string& backend_name, const Problem& p,
                                        const nlohmann::json& options = nlohmann::json::object()) {
  DeviceBuffer<float> x(p.x_count()), w(p.w_count()), b(p.n), y(p.y_count());
  const float bound = p.init_bound();
  generate_on_device(p.distribution, p.seed, Tensor::x, x.get(), x.size(), p.k, bound, nullptr);
  generate_on_device(p.distribution, p.seed, Tensor::w, w.get(), w.size(), p.k, bound, nullptr);
  generate_on_device(p.distribution, p.seed, Tensor::b, b.get(), b.size(), p.n, bound, nullptr);
  const Tensors t{x.get(), w.get(), b.get(), y.get()};
  RepeatedOutputs result;
  for (int instance = 0; instance < 2; ++instance) {
    const std::unique_ptr<Backend> backend = make_builtin_backend(backend_name);
    backend->configure(options);
    backend->setup(p, t, nullptr);
    backend->prepack(t, nullptr);
    for (int run = 0; run < (instance == 0 ? 2 : 1); ++run) {
      MISH_CUDA_CHECK(cudaMemset(y.get(), 0xff, y.bytes()));
      backend->run(t, nullptr);
      MISH_CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<float> host(y.size());
      MISH_CUDA_CHECK(cudaMemcpy(host.data(), y.get(), y.bytes(), cudaMemcpyDeviceToHost));
      result.outputs.push_back(std::move(host));
    }
    result.details.push_back(backend->describe());
  }
  return result;
}

// Repeated runs of a backend whose plan splits K give the same bytes every time.
inline void expect_bit_identical_with_split_k(const std::string& backend_name, const Problem& p) {
  const RepeatedOutputs r = repeated_outputs(backend_name, p);
  for (const nlohmann::json& details : r.details)
    EXPECT_GT(details.at("split_k").get<int>(), 1) << p.shape();
  for (size_t i = 1; i < r.outputs.size(); ++i)
    EXPECT_EQ(std::memcmp(r.outputs[i].data(), r.outputs[0].data(),
                          r.outputs[0].size() * sizeof(float)),
              0)
        << p.shape() << ": run " << i << " differs from run 0";
}

}  // namespace mish

#define MISH_REQUIRE_GPU()                                                  \
  do {                                                                      \
    std::string mish_why_;                                                  \
    if (!::mish::query_device(&mish_why_))                                  \
      GTEST_SKIP() << "no CUDA device (" << mish_why_ << "): GPU test skipped"; \
  } while (0)
