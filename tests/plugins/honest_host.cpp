// Honest host backends that use every optional call of plugin.h, beside the cheating plugins:
//   honest-host           options ({"label": text}), supports(), prepack() (a packed copy of W),
//                         two stages (gemm, then bias + Mish + Mish), describe()
//   honest-host-deferred  run() computes into the instance; write_output() copies it into y
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "test_plugin.h"

namespace {

using test_plugin::fail;

// Instances alive in this library: describe() reports it, so a test sees teardown happen.
int live_instances = 0;

struct Honest {
  mishbench_shape shape;
  std::string label;
  std::vector<float> packed_w;  // filled by prepack()
  long runs = 0;
  std::string description;
  Honest() { ++live_instances; }
  ~Honest() { --live_instances; }
};

int supports(const mishbench_shape* shape, const mishbench_device*, char* reason, size_t size) {
  if (shape->m <= (int64_t(1) << 30) / shape->n / shape->k) return 1;  // m*n*k <= 2^30
  std::snprintf(reason, size, "honest-host computes with plain loops: m*n*k <= 2^30");
  return 0;
}

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*,
          const char* options_json, void*, char* message, size_t size) {
  try {
    const nlohmann::json options = nlohmann::json::parse(options_json);
    std::string label = "unlabelled";
    for (const auto& item : options.items()) {
      if (item.key() != "label") {
        std::snprintf(message, size, "unknown option '%s'; honest-host takes: label",
                      item.key().c_str());
        return MISHBENCH_ERROR;
      }
      label = item.value().get<std::string>();
    }
    auto* self = new Honest();
    self->shape = *shape;
    self->label = label;
    *instance = self;
    return MISHBENCH_OK;
  } catch (const std::exception& error) {
    return fail(message, size, error.what());
  }
}

int prepack(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  auto* self = static_cast<Honest*>(instance);
  self->packed_w.assign(t->w, t->w + self->shape.n * self->shape.k);
  return MISHBENCH_OK;
}

int run_stage(void* instance, uint32_t index, const mishbench_tensors* t, void*, char* message,
              size_t size) {
  auto* self = static_cast<Honest*>(instance);
  if (self->packed_w.empty()) return fail(message, size, "called before prepack()");
  if (index == 0)
    test_plugin::gemm(self->shape, t->x, self->packed_w.data(), t->y);
  else
    test_plugin::epilogue(self->shape, t->b, t->y);
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void* stream, char* message, size_t size) {
  for (uint32_t stage = 0; stage < 2; ++stage)
    if (run_stage(instance, stage, t, stream, message, size) != MISHBENCH_OK)
      return MISHBENCH_ERROR;
  ++static_cast<Honest*>(instance)->runs;
  return MISHBENCH_OK;
}

const char* describe(void* instance) {
  auto* self = static_cast<Honest*>(instance);
  self->description = nlohmann::json{{"label", self->label},
                                     {"runs", self->runs},
                                     {"live_instances", live_instances}}
                          .dump();
  return self->description.c_str();
}

void teardown(void* instance) { delete static_cast<Honest*>(instance); }

const mishbench_stage kStages[] = {{"gemm", MISHBENCH_STAGE_GEMM, 0},
                                   {"epilogue", MISHBENCH_STAGE_EPILOGUE, 1}};

// honest-host-deferred: the instance holds the result until write_output().
struct Deferred {
  mishbench_shape shape;
  std::vector<float> y;
};

int setup_deferred(void** instance, const mishbench_shape* shape, const mishbench_tensors*,
                   const char*, void*, char*, size_t) {
  *instance = new Deferred{*shape, std::vector<float>(size_t(shape->m * shape->n))};
  return MISHBENCH_OK;
}

int run_deferred(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  auto* self = static_cast<Deferred*>(instance);
  test_plugin::compute_layer_into(self->shape, *t, self->y.data());
  return MISHBENCH_OK;
}

int write_output(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  const auto* self = static_cast<const Deferred*>(instance);
  std::memcpy(t->y, self->y.data(), self->y.size() * sizeof(float));
  return MISHBENCH_OK;
}

void teardown_deferred(void* instance) { delete static_cast<Deferred*>(instance); }

const mishbench_backend kBackends[] = {
    {"honest-host", "test plugin: fp32 loops with every optional call", "fp32", MISHBENCH_HOST,
     MISHBENCH_FP32, supports, setup, prepack, run, nullptr, 2, kStages, run_stage, describe,
     teardown},
    {"honest-host-deferred", "test plugin: fp32 loops, y written by write_output()", "fp32",
     MISHBENCH_HOST, MISHBENCH_FP32, nullptr, setup_deferred, nullptr, run_deferred,
     write_output, 0, nullptr, nullptr, nullptr, teardown_deferred},
};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
