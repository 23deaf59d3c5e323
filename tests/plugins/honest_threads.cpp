// Honest but unusual: the layer split by rows over up to 4 std::threads, every one joined before
// run() returns, so the work is done when the call is.
// Verdict: ok.
#include <algorithm>
#include <thread>
#include <vector>

#include "test_plugin.h"

namespace {

// Rows [first, last) of y = mish(mish(x W^T + b)), the same loops as test_plugin::compute_layer.
void compute_rows(const mishbench_shape& s, const mishbench_tensors& t, int64_t first,
                  int64_t last) {
  for (int64_t row = first; row < last; ++row)
    for (int64_t col = 0; col < s.n; ++col) {
      float sum = 0.0f;
      for (int64_t i = 0; i < s.k; ++i) sum += t.x[row * s.k + i] * t.w[col * s.k + i];
      t.y[row * s.n + col] = mish::mish(mish::mish(sum + t.b[col]));
    }
}

int run(void* instance, const mishbench_tensors* t, void*, char* message, size_t size) {
  const mishbench_shape& s = test_plugin::shape_of(instance);
  const int64_t threads =
      std::min<int64_t>(s.m, std::clamp<int64_t>(std::thread::hardware_concurrency(), 1, 4));
  std::vector<std::thread> workers;
  int status = MISHBENCH_OK;
  try {
    for (int64_t i = 0; i < threads; ++i)
      workers.emplace_back(compute_rows, s, *t, s.m * i / threads, s.m * (i + 1) / threads);
  } catch (const std::exception& error) {
    status = test_plugin::fail(message, size, error.what());
  }
  for (std::thread& worker : workers) worker.join();
  return status;
}

const mishbench_backend kBackends[] = {
    test_plugin::shape_backend("honest-threads", MISHBENCH_HOST, run)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
