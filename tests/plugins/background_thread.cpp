// Cheat: run() starts a detached thread that computes the layer into y and returns at once, so
// the wall clock around run() sees only the thread's start. y is read right after the call
// returns, before the thread is done: the output is still the tool's poison, or half written.
// (teardown() waits for the threads still running, so none outlives the tensors.)
// Verdict: mismatch ("did not match").
#include <condition_variable>
#include <mutex>
#include <thread>

#include "test_plugin.h"

namespace {

struct Background {
  mishbench_shape shape;
  std::mutex mutex;
  std::condition_variable done;
  int running = 0;
};

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char*, size_t) {
  auto* self = new Background();
  self->shape = *shape;
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void*, char* message, size_t size) {
  auto* self = static_cast<Background*>(instance);
  try {
    {
      const std::lock_guard<std::mutex> lock(self->mutex);
      ++self->running;
    }
    std::thread([self, tensors = *t] {
      test_plugin::compute_layer(self->shape, tensors);
      const std::lock_guard<std::mutex> lock(self->mutex);
      --self->running;
      self->done.notify_all();
    }).detach();
    return MISHBENCH_OK;
  } catch (const std::exception& error) {
    const std::lock_guard<std::mutex> lock(self->mutex);
    --self->running;
    return test_plugin::fail(message, size, error.what());
  }
}

void teardown(void* instance) {
  auto* self = static_cast<Background*>(instance);
  {
    std::unique_lock<std::mutex> lock(self->mutex);
    self->done.wait(lock, [self] { return self->running == 0; });
  }
  delete self;
}

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("background-thread", MISHBENCH_HOST, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
