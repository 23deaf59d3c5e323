#include "exec/worker/worker_executor.h"

#include <algorithm>

#include "base/common/elapsed.h"
#include "core/timing/statistics.h"
#include "exec/worker/protocol.h"
#include "exec/worker/worker_process.h"

namespace mish {
namespace {

using nlohmann::json;

constexpr int kRoundTrips = 5;

class WorkerExecutor final : public Executor {
 public:
  explicit WorkerExecutor(WorkerLaunch launch);

  Support supports(const Problem& problem, const DeviceInfo* device) override;
  SetupReport setup(const Problem& problem, ProblemBuffers& buffers) override;
  double time_prepack() override;
  Sampling sample(const Series& series, const SampleSettings& settings, const CallPlan& plan,
                  const ProgressFn& on_progress) override;
  AuditReading audit(const Series& series, int iterations) override;
  size_t capture_graph() override;
  nlohmann::json describe() override;

  std::optional<IsolationReport> isolation() const override;
  std::vector<unsigned> pids() const override;

 private:
  WorkerProcess& worker();  // started (again) when needed
  nlohmann::json ask(const nlohmann::json& request, const WorkerStep& during,
                     const ProgressFn& on_progress = {}, const std::vector<int>& fds = {});

  WorkerLaunch launch_;
  std::unique_ptr<WorkerProcess> process_;
  IsolationReport cost_;
};

}  // namespace

WorkerExecutor::WorkerExecutor(WorkerLaunch launch) : launch_(std::move(launch)) {}

WorkerProcess& WorkerExecutor::worker() {
  if (process_ && process_->alive()) return *process_;
  process_.reset();
  const auto start = std::chrono::steady_clock::now();
  process_ = std::make_unique<WorkerProcess>(launch_.argv, launch_.backend);
  process_->request({{"op", "open"},
                     {"backend", launch_.backend},
                     {"options", launch_.options},
                     {"settings", to_message(launch_.settings)},
                     {"device", launch_.device}},
                    "starting the worker", launch_.limits.setup);
  cost_.start_ms = elapsed_ms(start);
  std::vector<double> trips;
  for (int i = 0; i < kRoundTrips; ++i) {
    const auto sent = std::chrono::steady_clock::now();
    process_->request({{"op", "ping"}}, "a ping", launch_.limits.step);
    trips.push_back(elapsed_ms(sent));
  }
  cost_.round_trip_ms = median(trips);
  ++cost_.starts;
  return *process_;
}

json WorkerExecutor::ask(const json& request, const WorkerStep& during,
                         const ProgressFn& on_progress, const std::vector<int>& fds) {
  return worker().request(request, during, launch_.limits.step, on_progress, fds);
}

Support WorkerExecutor::supports(const Problem& problem, const DeviceInfo*) {
  const json reply = ask({{"op", "supports"}, {"problem", to_message(problem)}},
                         WorkerStep::backend_call("supports()"));
  return {reply.at("supported").get<bool>(), reply.at("reason").get<std::string>()};
}

SetupReport WorkerExecutor::setup(const Problem& problem, ProblemBuffers& buffers) {
  const SharedTensors shared = buffers.share();
  const json reply = worker().request(
      {{"op", "setup"}, {"problem", to_message(problem)}, {"buffers", shared.description}},
      WorkerStep::backend_call("setup()"), launch_.limits.setup, {}, shared.fds);
  return from_message<SetupReport>(reply.at("setup"));
}

double WorkerExecutor::time_prepack() {
  return ask({{"op", "time_prepack"}}, WorkerStep::backend_call("prepack()"))
      .at("median_ms")
      .get<double>();
}

Sampling WorkerExecutor::sample(const Series& series, const SampleSettings& settings,
                                const CallPlan& plan, const ProgressFn& on_progress) {
  const json reply = ask({{"op", "sample"},
                          {"series", to_message(series)},
                          {"sampling", to_message(settings)},
                          {"plan", to_message(plan)}},
                         "the timed series", on_progress);
  return from_message<Sampling>(reply.at("sampling"));
}

AuditReading WorkerExecutor::audit(const Series& series, int iterations) {
  const json reply = ask(
      {{"op", "audit"}, {"series", to_message(series)}, {"iterations", iterations}},
      "the timing audit");
  return from_message<AuditReading>(reply.at("audit"));
}

size_t WorkerExecutor::capture_graph() {
  return ask({{"op", "capture_graph"}}, "the CUDA graph capture").at("nodes").get<size_t>();
}

std::optional<IsolationReport> WorkerExecutor::isolation() const {
  IsolationReport report = cost_;
  if (process_) report.output = process_->output_tail();
  return report;
}

std::vector<unsigned> WorkerExecutor::pids() const {
  if (process_ && process_->alive()) return {static_cast<unsigned>(process_->pid())};
  return {};
}

json WorkerExecutor::describe() {
  return ask({{"op", "describe"}}, WorkerStep::backend_call("describe()")).at("details");
}

std::unique_ptr<Executor> make_worker_executor(WorkerLaunch launch) {
  return std::make_unique<WorkerExecutor>(std::move(launch));
}

}  // namespace mish
