// The interface every implementation of the layer plugs into: the built-ins (a kernel in
// kernels/, an adapter in src/backends/builtin/, one row in registry.cpp) and the adapters for backends
// from outside the tool.
#pragma once
#include <cuda_runtime.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/env/environment.h"
#include "core/outcome/backend_info.h"
#include "core/problem/problem.h"

namespace mish {

// Pointers to the layer's tensors, all on the backend's side (host or device).
struct Tensors {
  const float* x = nullptr;  // [m, k]
  const float* w = nullptr;  // [n, k]
  const float* b = nullptr;  // [n]
  float* y = nullptr;        // [m, n], written by run()
};

// A backend's own failure (a plugin's error code and message, say): recorded as its error.
class BackendError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Support {
  bool ok = true;
  std::string reason;  // why not, when !ok
};

struct Stage {
  std::string name;  // "gemm", "epilogue"
  StageKind kind = StageKind::gemm;
  double bytes = 0;  // epilogue: the bytes it must move at the least (epilogue_bytes)
  std::function<void(const Tensors&, cudaStream_t)> enqueue;  // same rules as Backend::run
};

// Least traffic of an epilogue over y [m, n]: read and write y once, plus the bias if it adds it.
inline double epilogue_bytes(const Problem& problem, bool reads_bias) {
  return 8.0 * double(problem.m) * double(problem.n) + (reads_bias ? 4.0 * double(problem.n) : 0.0);
}

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;     // the CLI name, also the JSON key
  virtual std::string_view summary() const = 0;  // one line for --list-backends
  virtual std::string_view math_mode() const = 0;
  virtual Accuracy expected_accuracy() const { return Accuracy::fp32; }
  virtual Placement placement() const { return Placement::device; }
  virtual BackendOrigin origin() const { return {}; }
  // Shape and architecture limits; `device` is null when no GPU is present.
  virtual Support supports(const Problem&, const DeviceInfo* device) const {
    (void)device;
    return {};
  }
  // Backend-specific options (--backend-option NAME.KEY=VALUE), applied before setup; throws
  // UsageError for an unknown key or a bad value.
  virtual void configure(const nlohmann::json& options);
  // Handles, heuristics, buffers: untimed, but reported. May allocate.
  virtual void setup(const Problem& problem, const Tensors& tensors, cudaStream_t stream) {
    (void)problem, (void)tensors, (void)stream;
  }
  // Weight preparation (splitting, scaling, converting W) after setup: a property of the weights,
  // like prepacking in inference libraries. Timed apart as prepack_ms, and inside each iteration
  // with --include-prepack. Enqueue only, like run().
  virtual bool prepacks_weights() const { return false; }
  virtual void prepack(const Tensors& tensors, cudaStream_t stream) { (void)tensors, (void)stream; }
  // Enqueues one forward pass: no allocation, no synchronization (host backends run inline).
  virtual void run(const Tensors& tensors, cudaStream_t stream) = 0;
  // Copies the last run's result into y, for backends whose run() leaves it elsewhere; untimed,
  // called after run() whenever y is about to be read. Default: nothing (run() writes y).
  virtual void write_output(const Tensors& tensors, cudaStream_t stream) {
    (void)tensors, (void)stream;
  }
  // run() split into stages that, enqueued in order, do what run() does; valid after setup().
  // Empty (the default) when run() is one indivisible piece, e.g. a single fused kernel.
  virtual std::vector<Stage> stages() const { return {}; }
  // Algorithm, tiles, launch configuration: lands in the report.
  virtual nlohmann::json describe() const { return nlohmann::json::object(); }

  BackendInfo info() const;  // the above, as the table and the results carry it
};

// A backend whose forward pass is a library GEMM into y followed by elementwise kernels on y:
// run() enqueues both, and stages() offers them apart for the stage breakdown.
class GemmThenEpilogueBackend : public Backend {
 public:
  void run(const Tensors& t, cudaStream_t stream) override {
    enqueue_gemm(t, stream);
    enqueue_epilogue(t, stream);
  }
  std::vector<Stage> stages() const override {
    return {{"gemm", StageKind::gemm, 0.0,
             [this](const Tensors& t, cudaStream_t s) { enqueue_gemm(t, s); }},
            {"epilogue", StageKind::epilogue, epilogue_bytes(problem_, epilogue_reads_bias()),
             [this](const Tensors& t, cudaStream_t s) { enqueue_epilogue(t, s); }}};
  }

 protected:
  virtual void enqueue_gemm(const Tensors& t, cudaStream_t stream) const = 0;
  virtual void enqueue_epilogue(const Tensors& t, cudaStream_t stream) const = 0;
  virtual bool epilogue_reads_bias() const = 0;

  Problem problem_;  // set by setup()
};

}  // namespace mish
