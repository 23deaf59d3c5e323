// What the test plugins share, so that each plugin file holds only the one way it misbehaves:
// the honest layer on the host, an instance that keeps the problem's shape, and the tables.
#pragma once
#include <cstdio>
#include <cstring>

#include <mishbench/plugin.h>

#include "mish.cuh"

namespace test_plugin {

using SetupFn = int (*)(void**, const mishbench_shape*, const mishbench_tensors*, const char*,
                       void*, char*, size_t);
using RunFn = int (*)(void*, const mishbench_tensors*, void*, char*, size_t);
using TeardownFn = void (*)(void*);

// y = x W^T in fp32, no bias.
inline void gemm(const mishbench_shape& s, const float* x, const float* w, float* y) {
  for (int64_t row = 0; row < s.m; ++row)
    for (int64_t col = 0; col < s.n; ++col) {
      float sum = 0.0f;
      for (int64_t i = 0; i < s.k; ++i) sum += x[row * s.k + i] * w[col * s.k + i];
      y[row * s.n + col] = sum;
    }
}

// y = mish(mish(y + b)) in place.
inline void epilogue(const mishbench_shape& s, const float* b, float* y) {
  for (int64_t row = 0; row < s.m; ++row)
    for (int64_t col = 0; col < s.n; ++col)
      y[row * s.n + col] = mish::mish(mish::mish(y[row * s.n + col] + b[col]));
}

// The layer from t.x, t.w and t.b into `out` (t.y or a buffer of the plugin's own).
inline void compute_layer_into(const mishbench_shape& s, const mishbench_tensors& t, float* out) {
  gemm(s, t.x, t.w, out);
  epilogue(s, t.b, out);
}
inline void compute_layer(const mishbench_shape& s, const mishbench_tensors& t) {
  compute_layer_into(s, t, t.y);
}

// Writes `text` as the call's message and returns MISHBENCH_ERROR.
inline int fail(char* message, size_t size, const char* text) {
  std::snprintf(message, size, "%s", text);
  return MISHBENCH_ERROR;
}

// The instance of most test backends: a copy of the problem's shape.
inline int setup_shape(void** instance, const mishbench_shape* shape, const mishbench_tensors*,
                       const char* options_json, void*, char* message, size_t size) {
  if (std::strcmp(options_json, "{}") != 0) return fail(message, size, "takes no options");
  *instance = new mishbench_shape(*shape);
  return MISHBENCH_OK;
}
inline void teardown_shape(void* instance) { delete static_cast<mishbench_shape*>(instance); }
inline const mishbench_shape& shape_of(void* instance) {
  return *static_cast<const mishbench_shape*>(instance);
}

inline int run_honest_host(void* instance, const mishbench_tensors* t, void*, char*, size_t) {
  compute_layer(shape_of(instance), *t);
  return MISHBENCH_OK;
}

// An fp32 backend of three calls: setup, run and teardown.
constexpr mishbench_backend backend_of(const char* name, int placement, SetupFn setup, RunFn run,
                                       TeardownFn teardown) {
  return {name,    "test plugin", "fp32",  placement, MISHBENCH_FP32, nullptr, setup, nullptr,
          run,     nullptr,       0,       nullptr,   nullptr,        nullptr, teardown};
}

// An fp32 backend whose instance is its shape; `run` is the only call it brings.
constexpr mishbench_backend shape_backend(const char* name, int placement, RunFn run) {
  return backend_of(name, placement, setup_shape, run, teardown_shape);
}

constexpr mishbench_plugin table_of(uint32_t count, const mishbench_backend* backends) {
  return {MISHBENCH_PLUGIN_ABI_VERSION, count, backends};
}

}  // namespace test_plugin

// Defines the entry point of a plugin whose table is the static array `backends`.
#define TEST_PLUGIN_ENTRY(backends)                                                           \
  MISHBENCH_PLUGIN_EXPORT const mishbench_plugin* mishbench_plugin_entry(void) {             \
    static const mishbench_plugin plugin =                                                    \
        test_plugin::table_of(sizeof(backends) / sizeof(backends[0]), backends);             \
    return &plugin;                                                                           \
  }
