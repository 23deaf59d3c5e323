// Cheat: run() hands the call to a host thread of its own and returns at once; about 1 ms later
// that thread enqueues the (honest) layer on a non-blocking stream of its own, so the events
// around the call see none of it. The work lands after the call's window, and y
// is read before it is written.
// Verdict: mismatch ("did not match") and/or error ("outside the timed region").
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "device_layer.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kDelay = std::chrono::milliseconds(1);

struct Job {
  mishbench_tensors tensors;
  Clock::time_point due;
};

struct LateThread {
  mishbench_shape shape{};
  int device = 0;
  cudaStream_t stream = nullptr;
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Job> jobs;
  bool stop = false;
  std::thread worker;
};

// The thread: each job's layer, enqueued on the instance's stream once the job is due.
void serve(LateThread* self) {
  cudaSetDevice(self->device);
  char message[256];
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(self->mutex);
      self->wake.wait(lock, [self] { return self->stop || !self->jobs.empty(); });
      if (self->stop) return;
      job = self->jobs.front();
      self->jobs.pop_front();
    }
    std::this_thread::sleep_until(job.due);
    test_plugin::enqueue_layer(self->shape, job.tensors, self->stream, message, sizeof(message));
  }
}

void release(LateThread* self) {
  if (self->worker.joinable()) {
    {
      const std::lock_guard<std::mutex> lock(self->mutex);
      self->stop = true;
    }
    self->wake.notify_all();
    self->worker.join();
  }
  if (self->stream != nullptr) {
    cudaStreamSynchronize(self->stream);
    cudaStreamDestroy(self->stream);
  }
  delete self;
}

int setup(void** instance, const mishbench_shape* shape, const mishbench_tensors*, const char*,
          void*, char* message, size_t size) {
  auto* self = new LateThread();
  self->shape = *shape;
  cudaError_t status = cudaGetDevice(&self->device);
  if (status == cudaSuccess)
    status = cudaStreamCreateWithFlags(&self->stream, cudaStreamNonBlocking);
  if (status != cudaSuccess) {
    release(self);
    return test_plugin::cuda_status(status, "setup", message, size);
  }
  try {
    self->worker = std::thread(serve, self);
  } catch (const std::exception& error) {
    release(self);
    return test_plugin::fail(message, size, error.what());
  }
  *instance = self;
  return MISHBENCH_OK;
}

int run(void* instance, const mishbench_tensors* t, void*, char* message, size_t size) {
  auto* self = static_cast<LateThread*>(instance);
  try {
    {
      const std::lock_guard<std::mutex> lock(self->mutex);
      self->jobs.push_back({*t, Clock::now() + kDelay});
    }
    self->wake.notify_one();
    return MISHBENCH_OK;
  } catch (const std::exception& error) {
    return test_plugin::fail(message, size, error.what());
  }
}

void teardown(void* instance) { release(static_cast<LateThread*>(instance)); }

const mishbench_backend kBackends[] = {
    test_plugin::backend_of("late-thread", MISHBENCH_DEVICE, setup, run, teardown)};

}  // namespace

TEST_PLUGIN_ENTRY(kBackends)
