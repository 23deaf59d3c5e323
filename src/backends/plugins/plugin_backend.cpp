#include "backends/plugins/plugin_backend.h"

#include <fmt/format.h>

#include <array>
#include <stdexcept>
#include <utility>

#include "backends/plugins/plugin_text.h"
#include "base/common/errors.h"

namespace mish {
namespace {

// The message buffer every call gets (plugin.h).
constexpr size_t kMessageSize = 4096;
using MessageBuffer = std::array<char, kMessageSize>;

// What a plugin wrote into a message buffer, as one line; the buffer's last byte is forced to
// NUL first, so an unterminated message is cut rather than overrun.
std::string message_text(MessageBuffer& buffer) {
  buffer.back() = '\0';
  return one_line(buffer.data());
}

mishbench_shape to_shape(const Problem& problem) { return {problem.m, problem.n, problem.k}; }

mishbench_tensors to_tensors(const Tensors& t) { return {t.x, t.w, t.b, t.y}; }

class PluginBackend final : public Backend {
 public:
  PluginBackend(std::shared_ptr<const void> owner, const PluginBackendSpec& spec,
                BackendOrigin origin)
      : owner_(std::move(owner)), spec_(spec), origin_(std::move(origin)) {}
  PluginBackend(const PluginBackend&) = delete;
  PluginBackend& operator=(const PluginBackend&) = delete;
  ~PluginBackend() override { release(); }

  std::string_view name() const override { return spec_.name; }
  std::string_view summary() const override { return spec_.summary; }
  std::string_view math_mode() const override { return spec_.math_mode; }
  Accuracy expected_accuracy() const override { return spec_.accuracy; }
  Placement placement() const override { return spec_.placement; }
  BackendOrigin origin() const override { return origin_; }

  Support supports(const Problem& problem, const DeviceInfo* device) const override {
    if (spec_.calls.supports == nullptr) return {};
    const mishbench_shape shape = to_shape(problem);
    mishbench_device info{};
    if (device != nullptr)
      info = {device->ordinal,      device->cc_major, device->cc_minor,     device->sms,
              device->memory_bytes, device->l2_bytes, device->name.c_str()};
    MessageBuffer reason{};
    const int verdict = guarded("supports()", [&] {
      return spec_.calls.supports(&shape, device != nullptr ? &info : nullptr, reason.data(),
                                  reason.size());
    });
    if (verdict == 1) return {};
    if (verdict != 0)
      throw BackendError(fmt::format("supports(): returned {}; it must return 1 (supported) or "
                                     "0 (not supported, with a reason)",
                                     verdict));
    const std::string why = message_text(reason);
    return {false, why.empty() ? "not supported (the plugin gave no reason)" : why};
  }

  // The plugin validates its options at setup(); any keys are kept until then.
  void configure(const nlohmann::json& options) override {
    if (!options.is_object())
      throw UsageError(fmt::format("options of backend '{}' must be a JSON object, not '{}'",
                                   spec_.name, excerpt(options.dump())));
    options_ = options;
  }

  void setup(const Problem& problem, const Tensors& tensors, cudaStream_t stream) override {
    release();  // a second setup replaces the first instance
    problem_ = problem;
    const mishbench_shape shape = to_shape(problem);
    const mishbench_tensors t = to_tensors(tensors);
    const std::string options = options_.dump();
    void* instance = nullptr;
    check("setup()", [&](char* message, size_t size) {
      return spec_.calls.setup(&instance, &shape, &t, options.c_str(), stream, message, size);
    });
    instance_ = instance;
    has_instance_ = true;
  }

  bool prepacks_weights() const override { return spec_.calls.prepack != nullptr; }

  void prepack(const Tensors& tensors, cudaStream_t stream) override {
    const mishbench_tensors t = to_tensors(tensors);
    void* const self = instance("prepack");
    check("prepack()", [&](char* message, size_t size) {
      return spec_.calls.prepack(self, &t, stream, message, size);
    });
  }

  void run(const Tensors& tensors, cudaStream_t stream) override {
    const mishbench_tensors t = to_tensors(tensors);
    void* const self = instance("run");
    check("run()", [&](char* message, size_t size) {
      return spec_.calls.run(self, &t, stream, message, size);
    });
  }

  void write_output(const Tensors& tensors, cudaStream_t stream) override {
    if (spec_.calls.write_output == nullptr) return;
    const mishbench_tensors t = to_tensors(tensors);
    void* const self = instance("write_output");
    check("write_output()", [&](char* message, size_t size) {
      return spec_.calls.write_output(self, &t, stream, message, size);
    });
  }

  std::vector<Stage> stages() const override {
    std::vector<Stage> stages;
    for (size_t i = 0; i < spec_.stages.size(); ++i) {
      const PluginStageSpec& stage = spec_.stages[i];
      const double bytes =
          stage.kind == StageKind::epilogue ? epilogue_bytes(problem_, stage.reads_bias) : 0.0;
      stages.push_back({stage.name, stage.kind, bytes,
                        [this, i](const Tensors& t, cudaStream_t s) { run_stage(i, t, s); }});
    }
    return stages;
  }

  nlohmann::json describe() const override {
    if (spec_.calls.describe == nullptr || !has_instance_) return nlohmann::json::object();
    const char* text = nullptr;
    try {
      text = spec_.calls.describe(instance_);
    } catch (...) {
      return {{"describe_error", "describe() threw a C++ exception across the plugin ABI"}};
    }
    if (text == nullptr) return nlohmann::json::object();
    try {
      nlohmann::json details = nlohmann::json::parse(text);
      if (details.is_object()) return details;
      return {{"describe_error", fmt::format("describe() returned JSON that is not an object: {}",
                                             excerpt(text))}};
    } catch (const nlohmann::json::exception& error) {
      return {{"describe_error",
               fmt::format("describe() returned text that is not JSON ({}): {}",
                           one_line(error.what()), excerpt(text))}};
    }
  }

 private:
  // Calls into the plugin; `what` names the call in messages ("run()"). An exception thrown
  // across the ABI (which plugin.h forbids) becomes a BackendError instead of unwinding through
  // the tool.
  template <class Call>
  static int guarded(const char* what, Call&& call) {
    try {
      return call();
    } catch (const std::exception& error) {
      throw BackendError(fmt::format("{}: threw a C++ exception across the plugin ABI: {}", what,
                                     one_line(error.what())));
    } catch (...) {
      throw BackendError(fmt::format("{}: threw a C++ exception across the plugin ABI", what));
    }
  }

  // A status-returning call: anything but MISHBENCH_OK becomes a BackendError with the
  // plugin's message.
  template <class Call>
  static void check(const char* what, Call&& call) {
    MessageBuffer message{};
    const int status = guarded(what, [&] { return call(message.data(), message.size()); });
    if (status == MISHBENCH_OK) return;
    const std::string text = message_text(message);
    throw BackendError(text.empty() ? fmt::format("{}: failed without a message", what)
                                    : fmt::format("{}: {}", what, text));
  }

  void* instance(const char* what) const {
    if (!has_instance_)
      throw std::logic_error(fmt::format("{}() of backend '{}' called before setup()", what,
                                         spec_.name));
    return instance_;
  }

  void run_stage(size_t index, const Tensors& tensors, cudaStream_t stream) const {
    const mishbench_tensors t = to_tensors(tensors);
    const std::string what = fmt::format("run_stage({}, '{}')", index, spec_.stages[index].name);
    void* const self = instance("run_stage");
    check(what.c_str(), [&](char* message, size_t size) {
      return spec_.calls.run_stage(self, static_cast<uint32_t>(index), &t, stream, message, size);
    });
  }

  // Tears the instance down; never throws (it runs in the destructor).
  void release() noexcept {
    if (!has_instance_) return;
    has_instance_ = false;
    if (spec_.calls.teardown == nullptr) return;
    try {
      spec_.calls.teardown(instance_);
    } catch (...) {  // forbidden by plugin.h; nothing left to do with the instance either way
    }
  }

  std::shared_ptr<const void> owner_;  // keeps the table (and its function pointers) alive
  const PluginBackendSpec& spec_;      // owned by owner_
  BackendOrigin origin_;
  nlohmann::json options_ = nlohmann::json::object();
  Problem problem_;
  void* instance_ = nullptr;
  bool has_instance_ = false;  // setup() succeeded; instance_ itself may be NULL
};

}  // namespace

std::unique_ptr<Backend> make_plugin_backend(std::shared_ptr<const PluginLibrary> library,
                                             size_t index) {
  if (library == nullptr || index >= library->backends().size())
    throw std::out_of_range(fmt::format("no plugin backend {}", index));
  const PluginBackendSpec& spec = library->backends()[index];
  BackendOrigin origin = library->origin();
  return std::make_unique<PluginBackend>(std::move(library), spec, std::move(origin));
}

std::unique_ptr<Backend> make_table_backend(std::shared_ptr<const void> owner,
                                            const PluginBackendSpec& spec, BackendOrigin origin) {
  return std::make_unique<PluginBackend>(std::move(owner), spec, std::move(origin));
}

std::vector<std::unique_ptr<Backend>> load_plugin_backends(const std::string& path) {
  const std::shared_ptr<const PluginLibrary> library = load_plugin(path);
  std::vector<std::unique_ptr<Backend>> backends;
  for (size_t i = 0; i < library->backends().size(); ++i)
    backends.push_back(make_plugin_backend(library, i));
  return backends;
}

}  // namespace mish
