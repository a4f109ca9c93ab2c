#include "swarm/core/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <system_error>

#include "swarm/kernels/base/assert.h"

namespace swarm {
namespace {

// Waits up to ~50 us for `done` to become true without sleeping. Back-to-back batches (a frame's
// filter stages, a step's kernels) then hand over in well under a microsecond instead of paying a
// futex wake-up each way, which on a 1 ms batch costs more than the second thread gains. Past the
// limit the caller sleeps on its condition variable as before, so an idle pool uses no CPU.
template <typename Done>
bool SpinBriefly(const Done& done) {
  constexpr auto kLimit = std::chrono::microseconds(50);
  const auto start = std::chrono::steady_clock::now();
  for (unsigned round = 0;; ++round) {
    if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();  // eases the spinning core's pressure on the memory pipeline
#elif defined(__aarch64__)
    asm volatile("yield");  // the same hint on aarch64
#endif
    if (round % 64 == 63 && std::chrono::steady_clock::now() - start > kLimit) return false;
  }
}

}  // namespace

// A thread that fails to start (the process's thread or address-space limit) must not leave the
// workers already started joinable: destroying a joinable std::thread calls std::terminate. So
// they are stopped and joined before the error leaves, naming the request and the system's reason.
ThreadPool::ThreadPool(size_t num_threads) {
  SWARM_ASSERT(num_threads >= 1);
  workers_.reserve(num_threads - 1);
  for (size_t t = 1; t < num_threads; ++t) {
    try {
      workers_.emplace_back([this, t] { WorkerLoop(t); });
    } catch (const std::system_error& error) {
      StopWorkers();
      throw std::system_error(error.code(), "could not start a pool of " +
                                                std::to_string(num_threads) + " threads: thread " +
                                                std::to_string(t + 1) + " failed to start");
    }
  }
}

ThreadPool::~ThreadPool() { StopWorkers(); }

void ThreadPool::StopWorkers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
}

void ThreadPool::RunBlock(size_t thread_index) const {
  const size_t threads = active_threads_;
  const size_t begin = count_ * thread_index / threads;
  const size_t end = count_ * (thread_index + 1) / threads;
  for (size_t index = begin; index < end; ++index) call_(context_, index);
}

void ThreadPool::Run(size_t count, Trampoline call, const void* context, size_t max_threads) {
  const size_t threads = std::min({num_threads(), max_threads, count});
  if (threads <= 1) {
    for (size_t index = 0; index < count; ++index) call(context, index);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    count_ = count;
    call_ = call;
    context_ = context;
    active_threads_ = threads;
    workers_busy_ = threads - 1;
    ++generation_;
  }
  work_ready_.notify_all();
  RunBlock(0);
  if (SpinBriefly([this] { return workers_busy_.load() == 0; })) return;
  std::unique_lock<std::mutex> lock(mutex_);
  work_done_.wait(lock, [this] { return workers_busy_ == 0; });
}

void ThreadPool::WorkerLoop(size_t thread_index) {
  size_t seen_generation = 0;
  for (;;) {
    SpinBriefly([&] { return stopping_.load() || generation_.load() != seen_generation; });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || generation_ != seen_generation; });
      if (stopping_) return;
      seen_generation = generation_;
      if (thread_index >= active_threads_) continue;  // not part of this batch
    }
    RunBlock(thread_index);
    bool last;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      last = --workers_busy_ == 0;
    }
    if (last) work_done_.notify_one();
  }
}

}  // namespace swarm
