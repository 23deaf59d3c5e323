// What the planted-slowdown plugins share: the option {"spin_us": N} (the delay each run adds,
// in microseconds, 0 to 1e6; default 0), the instance that keeps it, and describe(), which says
// that the delay is planted.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "test_plugin.h"

namespace test_plugin {

struct Planted {
  mishbench_shape shape;
  double spin_us = 0;
  std::string description;
};

inline int setup_planted(void** instance, const mishbench_shape* shape, const mishbench_tensors*,
                         const char* options_json, void*, char* message, size_t size) {
  try {
    const nlohmann::json options = nlohmann::json::parse(options_json);
    auto* self = new Planted{*shape};
    for (const auto& item : options.items()) {
      const bool spin = item.key() == "spin_us" && item.value().is_number() &&
                        item.value().get<double>() >= 0 && item.value().get<double>() <= 1e6;
      if (!spin) {
        delete self;
        std::snprintf(message, size, "takes one option, spin_us: microseconds from 0 to 1e6");
        return MISHBENCH_ERROR;
      }
      self->spin_us = item.value().get<double>();
    }
    *instance = self;
    return MISHBENCH_OK;
  } catch (const std::exception& error) {
    return fail(message, size, error.what());
  }
}

inline const char* describe_planted(void* instance) {
  auto* self = static_cast<Planted*>(instance);
  self->description =
      nlohmann::json{{"planted_slowdown", true}, {"spin_us", self->spin_us}}.dump();
  return self->description.c_str();
}

inline void teardown_planted(void* instance) { delete static_cast<Planted*>(instance); }

inline const Planted& planted(void* instance) { return *static_cast<const Planted*>(instance); }

// A backend of the honest layer whose run() adds the planted spin.
constexpr mishbench_backend planted_backend(const char* name, const char* summary, int placement,
                                            RunFn run) {
  return {name,    summary, "fp32",  placement,        MISHBENCH_FP32, nullptr, setup_planted,
          nullptr, run,     nullptr, 0,                nullptr,        nullptr, describe_planted,
          teardown_planted};
}

}  // namespace test_plugin
