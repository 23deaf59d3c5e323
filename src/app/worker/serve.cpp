#include "app/worker/serve.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <optional>

#include "base/common/errors.h"
#include "base/cuda/cuda_check.cuh"
#include "base/env/environment.h"
#include "core/timing/graph.h"
#include "exec/executor/device_context.h"
#include "exec/executor/in_process_executor.h"
#include "exec/worker/channel.h"
#include "exec/worker/mapped_tensors.h"
#include "exec/worker/protocol.h"

namespace mish {
namespace {

using nlohmann::json;

// Progress lines are also the worker's heartbeat; a few a second are plenty.
constexpr auto kProgressInterval = std::chrono::milliseconds(200);

// A failure that leaves this process's CUDA context unusable (an illegal address, a trap):
// every later call fails too, so the worker answers and exits.
bool context_is_broken() {
  cudaGetLastError();
  return cudaDeviceSynchronize() != cudaSuccess;
}

class Worker {
 public:
  Worker(Channel& channel, WorkerBackends backends)
      : channel_(channel), backends_(std::move(backends)) {}

  // Answers one request; false when the worker should exit.
  bool handle(const Channel::Received& received) {
    const json& request = received.message;
    const std::string op = request.value("op", std::string());
    if (op == "exit") {
      channel_.send({{"ok", true}});
      return false;
    }
    json reply = {{"ok", true}};
    if (op == "hello") {
      json list = json::array();
      for (const BackendInfo& info : backends_.infos) list.push_back(to_message(info));
      reply["pid"] = ::getpid();
      reply["backends"] = list;
    } else if (op == "ping") {
    } else if (op == "open") {
      open(request);
    } else if (op == "supports") {
      const Support support = executor().supports(from_message<Problem>(request.at("problem")),
                                                  device_ ? &*device_ : nullptr);
      reply["supported"] = support.ok;
      reply["reason"] = support.reason;
    } else if (op == "setup") {
      // The last problem's mappings go first: the parent may have freed those buffers and
      // allocated the new ones in the same place, which CUDA will not map twice.
      tensors_.reset();
      auto mapped = std::make_unique<MappedTensors>(request.at("buffers"), received.fds);
      reply["setup"] = to_message(executor().setup_on(
          from_message<Problem>(request.at("problem")), mapped->tensors(), mapped->store()));
      tensors_ = std::move(mapped);
    } else if (op == "time_prepack") {
      reply["median_ms"] = executor().time_prepack();
    } else if (op == "sample") {
      auto last = std::chrono::steady_clock::now() - kProgressInterval;
      const Sampling sampling = executor().sample(
          from_message<Series>(request.at("series")),
          from_message<SampleSettings>(request.at("sampling")),
          from_message<CallPlan>(request.at("plan")), [&](double done) {
            const auto now = std::chrono::steady_clock::now();
            if (now - last < kProgressInterval) return;
            last = now;
            channel_.send({{"progress", done}});
          });
      reply["sampling"] = to_message(sampling);
    } else if (op == "audit") {
      reply["audit"] = to_message(
          executor().audit(from_message<Series>(request.at("series")), request.at("iterations").get<int>()));
    } else if (op == "capture_graph") {
      reply["nodes"] = executor().capture_graph();
    } else if (op == "describe") {
      reply["details"] = executor().describe();
    } else {
      throw std::runtime_error(fmt::format("unknown request '{}'", op));
    }
    channel_.send(reply);
    return true;
  }

  bool on_device() const { return device_.has_value(); }

 private:
  void open(const json& request) {
    const std::string name = request.at("backend").get<std::string>();
    std::unique_ptr<Backend> backend = backends_.create(name);
    const json& options = request.at("options");
    if (!options.empty()) backend->configure(options);
    ExecutionEnv env;
    env.settings = from_message<ExecutorSettings>(request.at("settings"));
    if (backend->placement() == Placement::device) {
      // The device the parent's buffers are on; query_device makes it this process's device.
      const int ordinal = request.value("device", 0);
      std::string why;
      device_ = query_device(ordinal, &why);
      if (!device_)
        throw EnvironmentError(fmt::format("CUDA device {} cannot be used in the worker ({})",
                                           ordinal, why));
      stream_ = std::make_unique<Stream>();
      std::string clocks_note;
      clocks_ = ClockMonitor::open(device_->ordinal, &clocks_note);
      timer_ = std::make_unique<DeviceTimer>(stream_->get(), device_->l2_bytes, device_->sms,
                                             env.settings.l2, clocks_.get());
      env.stream = stream_->get();
      env.timer = timer_.get();
    }
    executor_ = std::make_unique<InProcessExecutor>(std::move(backend), env);
  }

  InProcessExecutor& executor() {
    if (!executor_) throw std::runtime_error("no backend is open in this worker");
    return *executor_;
  }

  Channel& channel_;
  WorkerBackends backends_;
  std::optional<DeviceInfo> device_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<ClockMonitor> clocks_;
  std::unique_ptr<DeviceTimer> timer_;
  std::unique_ptr<InProcessExecutor> executor_;  // destroyed before the timer and the stream
  std::unique_ptr<MappedTensors> tensors_;
};

json failure(const std::string& message, const char* kind, bool sticky) {
  return {{"ok", false}, {"error", message}, {"kind", kind}, {"sticky", sticky}};
}

}  // namespace

int serve_worker(int socket_fd, const std::function<WorkerBackends()>& load) {
  // Die with the tool: a worker stuck in a kernel must not outlive a killed parent.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) return 1;
  Channel channel(socket_fd);
  channel.send({{"started", true}});  // before anything that may end it (loading the backends)
  std::optional<Worker> worker;
  std::string load_error;
  try {
    worker.emplace(channel, load());
  } catch (const std::exception& error) {
    load_error = error.what();
  }
  while (true) {
    Channel::Received received;
    if (channel.receive(received, std::nullopt) != Channel::Status::message) return 0;
    if (!worker) {
      if (received.message.value("op", std::string()) == "exit") return 0;
      channel.send(failure(load_error, "usage", false));
      continue;
    }
    try {
      if (!worker->handle(received)) return 0;
    } catch (const GraphCaptureError& error) {
      channel.send(failure(error.what(), "graph", false));
    } catch (const UsageError& error) {
      channel.send(failure(error.what(), "usage", false));
    } catch (const std::exception& error) {
      const bool broken = worker->on_device() && context_is_broken();
      channel.send(failure(error.what(), "backend", broken));
      if (broken) return 1;
    }
  }
}

}  // namespace mish
