// A thread that runs the tasks given to it, one at a time, for as long as it lives. In a run whose
// devices work at the same time, each device's part lives on one: a worker process is tied to the
// thread that started it (PR_SET_PDEATHSIG fires when that thread ends, not the process), so that
// thread must outlive every problem the workers serve.
#pragma once
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>

namespace mish {

class TaskThread {
 public:
  TaskThread();
  ~TaskThread();  // runs what is queued, then joins
  TaskThread(const TaskThread&) = delete;
  TaskThread& operator=(const TaskThread&) = delete;

  // Queues `task`; the future holds its exception, if it throws.
  std::future<void> post(std::function<void()> task);

 private:
  void serve();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::packaged_task<void()>> tasks_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace mish
