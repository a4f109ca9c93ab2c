// An explicit thread pool with a static partition. The caller creates it (default: one thread,
// the caller's own, and no workers) and passes it to whatever runs batches; swarm starts no hidden
// threads.
//
// ParallelFor splits [0, count) into one contiguous block per thread, always the same way for a
// given (count, thread count). Since swarm's kernels compute each element independently, results
// are bitwise identical for any thread count; the static partition also keeps each thread on the
// same memory from step to step. Running a batch allocates nothing.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace swarm {

class ThreadPool {
 public:
  // num_threads >= 1 counts the caller: ThreadPool(2) starts one worker. When the system cannot
  // start a thread (its thread or address-space limit), the workers already started are stopped
  // and joined and std::system_error is thrown, its what() naming the threads requested and the
  // system's reason; nothing is left running. (The C API reports it as SWARM_UNAVAILABLE, the
  // programs exit with status 2.)
  explicit ThreadPool(size_t num_threads = 1);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  size_t num_threads() const { return workers_.size() + 1; }

  // Calls task(index) for every index in [0, count) on T = min(num_threads(), max_threads,
  // count) threads: thread t (0 = the caller) runs indices [count * t / T, count * (t + 1) / T)
  // in increasing order. With T = 1 the caller runs everything without waking a worker (waking
  // a sleeping one costs ~10-50 us, more than a small batch). Returns when all have run.
  // Not reentrant: a task must not call ParallelFor on the same pool.
  template <class Task>
  void ParallelFor(size_t count, const Task& task, size_t max_threads = SIZE_MAX) {
    Run(
        count,
        [](const void* context, size_t index) { (*static_cast<const Task*>(context))(index); },
        &task, max_threads);
  }
  // ParallelFor over ranges: task(begin, end) for [0, range), [range, 2 range), ... covering
  // [0, count), each range an index of ParallelFor.
  template <class Task>
  void ParallelForRanges(size_t count, size_t range, const Task& task,
                         size_t max_threads = SIZE_MAX) {
    ParallelFor((count + range - 1) / range,
                [&](size_t index) { task(index * range, std::min(count, (index + 1) * range)); },
                max_threads);
  }

 private:
  using Trampoline = void (*)(const void* context, size_t index);
  void Run(size_t count, Trampoline call, const void* context, size_t max_threads);
  void RunBlock(size_t thread_index) const;
  void WorkerLoop(size_t thread_index);
  // Wakes every worker to return and joins it (the destructor, and a constructor that failed).
  void StopWorkers();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  // The current batch; written under mutex_ before generation_ advances.
  size_t count_ = 0;
  size_t active_threads_ = 1;  // threads taking part in the current batch, caller included
  Trampoline call_ = nullptr;
  const void* context_ = nullptr;
  // Written under mutex_; atomic so that a waiting thread can spin on them briefly before it
  // sleeps on a condition variable (see SpinBriefly in thread_pool.cc).
  std::atomic<size_t> generation_ = 0;
  std::atomic<size_t> workers_busy_ = 0;
  std::atomic<bool> stopping_ = false;
};

}  // namespace swarm
