#include "run/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>

#include "backends/registry.h"
#include "common/device_buffer.h"
#include "common/errors.h"
#include "cuda_check.cuh"
#include "generate.cuh"
#include "problem/generator.h"
#include "progress/progress.h"
#include "reference/reference.h"
#include "report/npy.h"
#include "timing/graph.h"

namespace mish {
namespace {

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

// Status lines go to stderr so stdout carries only the table.
template <typename... Args>
void say(const RunConfig& config, fmt::format_string<Args...> format, Args&&... args) {
  if (!config.quiet) fmt::print(stderr, "{}\n", fmt::format(format, std::forward<Args>(args)...));
}

// RAII stream.
class Stream {
 public:
  Stream() { MISH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { MISH_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// The problem's tensors on the device, generated there with the same counter-based generator.
struct DeviceProblem {
  DeviceBuffer<float> x, w, b, y;
  DeviceProblem(const Problem& p, cudaStream_t stream)
      : x(p.x_count()), w(p.w_count()), b(p.n), y(p.y_count()) {
    const float bound = p.init_bound();
    generate_on_device(p.distribution, p.seed, Tensor::x, x.get(), x.size(), p.k, bound, stream);
    generate_on_device(p.distribution, p.seed, Tensor::w, w.get(), w.size(), p.k, bound, stream);
    generate_on_device(p.distribution, p.seed, Tensor::b, b.get(), b.size(), p.n, bound, stream);
    MISH_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  Tensors tensors() const { return {x.get(), w.get(), b.get(), y.get()}; }
};

// Weight preparation is timed apart from the iterations: one warm-up, then the median of a few
// (the L2 mode is the run's, held by the timer). The last one leaves the prepared weights in
// place for run().
SampleSettings prepack_sampling() {
  SampleSettings settings;
  settings.warmup = 1;
  settings.iters = 5;
  return settings;
}

// The copy probe: 256 MiB each way, far beyond any L2, or a quarter of free memory if less.
size_t copy_probe_bytes(const DeviceInfo& device) {
  return std::min<size_t>(size_t(256) << 20, device.free_bytes / 4);
}

std::string fmt_gib(uint64_t bytes) { return fmt::format("{:.2f} GiB", double(bytes) / (1 << 30)); }

// Runs one backend on one problem; every failure is caught and recorded, never propagated.
class BackendSession {
 public:
  BackendSession(const RunConfig& config, const Problem& problem, const HostInputs& inputs,
                 const std::vector<double>& reference, const std::optional<DeviceInfo>& device,
                 DeviceProblem* device_problem, cudaStream_t stream, DeviceTimer* timer,
                 bool with_clocks)
      : config_(config), problem_(problem), inputs_(inputs), reference_(reference),
        device_(device), device_problem_(device_problem), stream_(stream), timer_(timer),
        with_clocks_(with_clocks) {}

  BackendResult run(Backend& backend) {
    BackendResult result;
    result.backend = std::string(backend.name());
    result.math_mode = std::string(backend.math_mode());
    result.expected_accuracy = backend.expected_accuracy();
    try {
      const Support support = backend.supports(problem_, device_ ? &*device_ : nullptr);
      if (!support.ok) {
        result.status = Status::skipped;
        result.reason = support.reason;
        return result;
      }
      if (backend.placement() == Placement::host)
        run_on_host(backend, result);
      else
        run_on_device(backend, result);
      result.details = backend.describe();
    } catch (const CudaError& error) {
      result.status = Status::error;
      result.reason = error.out_of_memory()
                          ? fmt::format("out of device memory: {}", error.what())
                          : error.what();
      cudaGetLastError();  // clear a non-sticky error so the next backend starts clean
    } catch (const std::exception& error) {
      result.status = Status::error;
      result.reason = error.what();
    }
    return result;
  }

 private:
  void run_on_host(Backend& backend, BackendResult& result) {
    host_y_.assign(problem_.y_count(), std::numeric_limits<float>::quiet_NaN());
    const Tensors t{inputs_.x.data(), inputs_.w.data(), inputs_.b.data(), host_y_.data()};
    const auto setup_start = std::chrono::steady_clock::now();
    backend.setup(problem_, t, nullptr);
    result.setup_ms = elapsed_ms(setup_start);
    if (backend.prepacks_weights())
      result.prepack_ms = summarize(
          sample_host([&] { backend.prepack(t, nullptr); }, prepack_sampling(), nullptr).samples_ms).median;
    const auto iteration = [&] {
      if (config_.include_prepack) backend.prepack(t, nullptr);
      backend.run(t, nullptr);
    };
    iteration();
    result.verification = check_output(result, host_y_);
    Sampling sampling = [&] {
      ProgressBar progress(fmt::format("{}: timing", result.backend), !config_.quiet);
      return sample_host(iteration, config_.sampling, &progress);
    }();  // the bar clears its line before any warning is printed
    static_cast<TimedSeries&>(result) = make_series(std::move(sampling), false);
    add_warnings(result, result.backend, result);
  }

  void run_on_device(Backend& backend, BackendResult& result) {
    const Tensors t = device_problem_->tensors();
    const auto setup_start = std::chrono::steady_clock::now();
    backend.setup(problem_, t, stream_);
    MISH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    result.setup_ms = elapsed_ms(setup_start);
    if (backend.prepacks_weights())
      result.prepack_ms = summarize(timer_->sample([&] { backend.prepack(t, stream_); },
                                                   prepack_sampling(), nullptr).samples_ms).median;
    const auto iteration = [&] {
      if (config_.include_prepack) backend.prepack(t, stream_);
      backend.run(t, stream_);
    };
    result.verification = verify_on_device(result, iteration, "");
    static_cast<TimedSeries&>(result) = time_on_device(result.backend, iteration);
    // A stage run alone leaves y in a state no check expects; the graph run below poisons and
    // rewrites all of y before it verifies.
    const std::vector<Stage> stages = backend.stages();
    if (stages.size() >= 2) {
      for (const Stage& stage : stages) {
        const std::string label = fmt::format("{}/{}", result.backend, stage.name);
        result.stages.push_back({stage.name, stage.kind, stage.bytes,
                                 time_on_device(label, [&] { stage.enqueue(t, stream_); })});
        add_warnings(result, label, result.stages.back().timing);
      }
    }
    if (config_.graph) {
      try {
        run_graph(backend, result);
      } catch (const GraphCaptureError& error) {
        result.status = Status::error;
        result.reason = error.what();
      }
    }
  }

  // Poison y with NaN (all-ones bytes) so an element the backend never writes fails, run once,
  // verify every element.
  Verification verify_on_device(BackendResult& result, const std::function<void()>& enqueue,
                                const std::string& what) {
    float* y = device_problem_->y.get();
    MISH_CUDA_CHECK(cudaMemsetAsync(y, 0xff, problem_.y_count() * sizeof(float), stream_));
    enqueue();
    MISH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    host_y_.resize(problem_.y_count());
    MISH_CUDA_CHECK(cudaMemcpy(host_y_.data(), y, problem_.y_count() * sizeof(float),
                               cudaMemcpyDeviceToHost));
    return check_output(result, host_y_, what);
  }

  TimedSeries time_on_device(const std::string& label, const std::function<void()>& enqueue) {
    ProgressBar progress(fmt::format("{}: timing", label), !config_.quiet);
    Sampling sampling = timer_->sample(enqueue, config_.sampling, &progress);
    MISH_CUDA_CHECK(cudaGetLastError());
    return make_series(std::move(sampling), with_clocks_);
  }

  // --graph: capture one forward pass, verify a replay's output, then time replays. A capture
  // failure is this backend's error; the plain timing already taken stays in the report.
  void run_graph(Backend& backend, BackendResult& result) {
    const Tensors t = device_problem_->tensors();
    const CapturedGraph graph(stream_, [&] {
      if (config_.include_prepack) backend.prepack(t, stream_);
      backend.run(t, stream_);
    });
    result.graph_nodes = graph.node_count();
    result.graph_verification =
        verify_on_device(result, [&] { graph.launch(stream_); }, "CUDA graph replay: ");
    const std::string label = result.backend + " graph";
    result.graph = time_on_device(label, [&] { graph.launch(stream_); });
    add_warnings(result, label, *result.graph);
  }

  void add_warnings(BackendResult& result, const std::string& label, const TimedSeries& series) {
    for (std::string& warning : series_warnings(label, series, config_.sampling)) {
      if (!config_.quiet) fmt::print(stderr, "warning: {}\n", warning);
      result.warnings.push_back(std::move(warning));
    }
  }

  // Verifies y; a failure marks the result a mismatch, its reason prefixed by `what` (empty for
  // the plain run, whose output --dump writes).
  Verification check_output(BackendResult& result, const std::vector<float>& y,
                            const std::string& what = "") {
    Verification v =
        verify(y.data(), reference_.data(), problem_.m, problem_.n, config_.tolerance);
    if (v.worst.row >= 0)
      v.worst.input_magnitude = input_magnitude(inputs_.x.data(), inputs_.w.data(),
                                                inputs_.b.data(), problem_.k, v.worst.row,
                                                v.worst.col);
    if (!v.passed() && result.status != Status::mismatch) {
      result.status = Status::mismatch;
      // The error relative to the worst element's input magnitude, in fp32 units: a plain fp32
      // accumulation of k terms typically lands within ~sqrt(k) of them, so a figure of that size
      // says the inputs, not the implementation, set the error (see docs/methodology.md).
      const double error = std::fabs(v.worst.got - v.worst.expected);
      result.reason = fmt::format(
          "{}{} of {} elements outside atol={:g} rtol={:g} ({} NaN/Inf); worst at ({}, {}): got "
          "{:.9g}, expected {:.9g}; its error is {:.3g} x 2^-24 of its input magnitude "
          "sum|x*w| = {:.3g} (plain fp32 accumulation over k={} typically reaches ~{:.0f})",
          what, v.mismatches, v.checked, config_.tolerance.atol, config_.tolerance.rtol,
          v.nonfinite, v.worst.row, v.worst.col, v.worst.got, v.worst.expected,
          error / v.worst.input_magnitude / 0x1p-24, v.worst.input_magnitude, problem_.k,
          std::sqrt(double(problem_.k)));
      if (config_.dump_dir.empty()) result.reason += "; rerun with --dump DIR to get the tensors as .npy";
    }
    if (what.empty() && !config_.dump_dir.empty())
      write_npy(dump_path(config_.dump_dir, problem_, "y_" + result.backend), y.data(),
                {uint64_t(problem_.m), uint64_t(problem_.n)});
    return v;
  }

  const RunConfig& config_;
  const Problem& problem_;
  const HostInputs& inputs_;
  const std::vector<double>& reference_;
  const std::optional<DeviceInfo>& device_;
  DeviceProblem* device_problem_;
  cudaStream_t stream_;
  DeviceTimer* timer_;
  bool with_clocks_;
  std::vector<float> host_y_;
};

void dump_inputs(const RunConfig& config, const Problem& p, const HostInputs& inputs,
                 const std::vector<double>& reference) {
  const uint64_t m = p.m, n = p.n, k = p.k;
  write_npy(dump_path(config.dump_dir, p, "x"), inputs.x.data(), {m, k});
  write_npy(dump_path(config.dump_dir, p, "w"), inputs.w.data(), {n, k});
  write_npy(dump_path(config.dump_dir, p, "b"), inputs.b.data(), {n});
  write_npy(dump_path(config.dump_dir, p, "y_reference"), reference.data(), {m, n});
  // The problem itself, so other tools (scripts/torch_baseline.py) know what the arrays are.
  const nlohmann::json problem = {{"m", p.m}, {"n", p.n}, {"k", p.k}, {"seed", p.seed},
                                  {"distribution", to_string(p.distribution)}};
  std::ofstream(dump_folder(config.dump_dir, p) + "/problem.json") << problem.dump(2) << '\n';
}

}  // namespace

std::string to_string(Status status) {
  switch (status) {
    case Status::ok: return "ok";
    case Status::mismatch: return "mismatch";
    case Status::skipped: return "skipped";
    case Status::error: return "error";
  }
  return "unknown";
}

bool RunOutcome::any_failure() const {
  for (const ProblemRun& run : runs)
    for (const BackendResult& r : run.results)
      if (r.status == Status::error ||
          (r.status == Status::mismatch && r.expected_accuracy == Accuracy::fp32))
        return true;
  return false;
}

uint64_t base_device_bytes(const Problem& problem, const DeviceInfo& device, L2Mode l2) {
  return problem.io_bytes() + (l2 == L2Mode::flush ? 2 * uint64_t(device.l2_bytes) : 0);
}

RunOutcome run_benchmark(const RunConfig& config) {
  validate(config);
  std::vector<std::unique_ptr<Backend>> backends = select_backends(config.backends);
  configure_backends(backends, config.backend_options);

  RunOutcome outcome;
  outcome.host = query_host();
  outcome.include_prepack = config.include_prepack;
  bool needs_device = false;
  for (const auto& backend : backends) needs_device |= backend->placement() == Placement::device;
  if (needs_device) {
    std::string why;
    outcome.device = query_device(&why);
    if (!outcome.device)
      throw EnvironmentError(fmt::format(
          "no CUDA device ({}); the GPU backends need one. Run --backend=cpu to use the host only",
          why));
    for (const Problem& p : config.problems) {
      const uint64_t need = base_device_bytes(p, *outcome.device, config.sampling.l2);
      if (need > outcome.device->free_bytes)
        throw EnvironmentError(fmt::format(
            "not enough device memory for {}: needs at least {} (inputs, output{}), {} free on {}; "
            "use smaller --m/--n/--k",
            p.shape(), fmt_gib(need), config.sampling.l2 == L2Mode::flush ? ", L2 flush buffer" : "",
            fmt_gib(outcome.device->free_bytes), outcome.device->name));
    }
  }

  std::unique_ptr<Stream> stream;
  std::unique_ptr<ClockMonitor> clocks;
  std::unique_ptr<DeviceTimer> timer;
  if (needs_device) {
    stream = std::make_unique<Stream>();
    clocks = ClockMonitor::open(outcome.device->ordinal, &outcome.clocks_note);
    if (clocks) {
      outcome.max_sm_mhz = clocks->max_sm_mhz();
    } else {
      say(config, "clocks not recorded: {}", outcome.clocks_note);
    }
    timer = std::make_unique<DeviceTimer>(stream->get(), outcome.device->l2_bytes,
                                          config.sampling.l2, clocks.get());
    outcome.copy_bandwidth = measure_copy_bandwidth(*timer, copy_probe_bytes(*outcome.device));
    say(config, "device-to-device copy: {:.0f} GB/s (bytes read + written)",
        outcome.copy_bandwidth->gb_per_s);
  }

  for (const Problem& problem : config.problems) {
    ProblemRun run;
    run.problem = problem;
    say(config, "problem {} ({}, seed {}): generating inputs", problem.shape(),
        to_string(problem.distribution), problem.seed);
    auto start = std::chrono::steady_clock::now();
    const HostInputs inputs = [&] {
      ProgressBar progress("generating inputs", !config.quiet);
      return generate_inputs(problem, [&](double done) { progress.update(done); });
    }();
    run.generate_ms = elapsed_ms(start);
    start = std::chrono::steady_clock::now();
    const std::vector<double> reference = [&] {
      ProgressBar progress("float64 reference", !config.quiet);
      return compute_reference(problem, inputs, [&](double done) { progress.update(done); });
    }();
    run.reference_ms = elapsed_ms(start);
    say(config, "float64 reference: {:.1f} ms", run.reference_ms);
    if (!config.dump_dir.empty()) dump_inputs(config, problem, inputs, reference);

    std::unique_ptr<DeviceProblem> device_problem;
    if (needs_device) device_problem = std::make_unique<DeviceProblem>(problem, stream->get());
    BackendSession session(config, problem, inputs, reference, outcome.device,
                           device_problem.get(), stream ? stream->get() : nullptr, timer.get(),
                           clocks != nullptr);
    for (auto& backend : backends) {
      say(config, "{}: verifying and timing", backend->name());
      run.results.push_back(session.run(*backend));
    }
    outcome.runs.push_back(std::move(run));
  }
  return outcome;
}

}  // namespace mish
