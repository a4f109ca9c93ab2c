// Tests for swarm/core/thread_pool.h: every index runs exactly once, on the thread and in the
// order the documented static partition says, for 1..4 threads; pools are reusable and shut down
// cleanly whether or not they ever ran work, and a pool whose threads cannot start throws and
// leaves nothing running.
#include "swarm/core/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "tests/support/address_space_limit.h"

namespace swarm {
namespace {

// The documented block of thread t for (count, threads): [count * t / T, count * (t + 1) / T).
size_t BlockOf(size_t index, size_t count, size_t threads) {
  for (size_t t = 0; t < threads; ++t) {
    if (index >= count * t / threads && index < count * (t + 1) / threads) return t;
  }
  return threads;  // not in any block: fails the comparison below
}

struct Observed {
  std::vector<int> runs;                                 // how often each index ran
  std::vector<std::thread::id> thread_of;                // which thread ran it
  std::map<std::thread::id, std::vector<size_t>> order;  // indices per thread, in run order
  size_t out_of_range = 0;
};

Observed RunAndObserve(ThreadPool& pool, size_t count) {
  Observed observed;
  observed.runs.assign(count, 0);
  observed.thread_of.resize(count);
  std::mutex mutex;
  pool.ParallelFor(count, [&](size_t index) {
    std::lock_guard<std::mutex> lock(mutex);
    if (index >= count) {  // Catch2 assertions are not thread-safe: record, check later
      observed.out_of_range += 1;
      return;
    }
    observed.runs[index] += 1;
    observed.thread_of[index] = std::this_thread::get_id();
    observed.order[std::this_thread::get_id()].push_back(index);
  });
  return observed;
}

TEST_CASE("ParallelFor runs every index once, partitioned into the documented blocks") {
  for (size_t threads = 1; threads <= 4; ++threads) {
    ThreadPool pool(threads);
    REQUIRE(pool.num_threads() == threads);
    for (size_t count : {size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{1000}}) {
      INFO(threads << " threads, count " << count);
      const Observed observed = RunAndObserve(pool, count);
      size_t wrong_run_counts = 0;
      for (int runs : observed.runs) wrong_run_counts += runs != 1;
      CHECK(wrong_run_counts == 0);
      CHECK(observed.out_of_range == 0);

      // Indices of one block share a thread; different blocks use different threads; the
      // caller runs block 0. A single index runs on the caller (no workers are woken for it).
      std::map<size_t, std::thread::id> thread_of_block;
      size_t partition_errors = 0;
      for (size_t index = 0; index < count; ++index) {
        const size_t block = count == 1 ? 0 : BlockOf(index, count, threads);
        const auto [it, inserted] = thread_of_block.emplace(block, observed.thread_of[index]);
        partition_errors += !inserted && it->second != observed.thread_of[index];
      }
      CHECK(partition_errors == 0);
      if (thread_of_block.count(0) != 0) {
        CHECK(thread_of_block[0] == std::this_thread::get_id());
      }
      std::map<std::thread::id, size_t> blocks_per_thread;
      for (const auto& [block, id] : thread_of_block) blocks_per_thread[id] += 1;
      for (const auto& [id, blocks] : blocks_per_thread) CHECK(blocks == 1);

      // Each thread walks its block in increasing order.
      for (const auto& [id, indices] : observed.order) {
        for (size_t i = 1; i < indices.size(); ++i) CHECK(indices[i] == indices[i - 1] + 1);
      }
    }
  }
}

TEST_CASE("The partition gives each thread its documented share of 1000 indices") {
  ThreadPool pool(3);
  const Observed observed = RunAndObserve(pool, 1000);
  std::vector<size_t> sizes;
  for (const auto& [id, indices] : observed.order) sizes.push_back(indices.size());
  std::sort(sizes.begin(), sizes.end());
  // [0, 333), [333, 666), [666, 1000)
  CHECK(sizes == std::vector<size_t>{333, 333, 334});
  CHECK(observed.order.at(std::this_thread::get_id()).front() == 0);
  CHECK(observed.order.at(std::this_thread::get_id()).back() == 332);
}

TEST_CASE("ParallelForRanges covers [0, count) once, in consecutive ranges") {
  for (size_t threads : {1, 2, 3}) {
    for (size_t count : {0, 1, 99, 100, 101, 1000}) {
      INFO(threads << " threads, " << count << " indices");
      ThreadPool pool(threads);
      std::mutex mutex;
      std::vector<std::pair<size_t, size_t>> ranges;
      pool.ParallelForRanges(count, 100, [&](size_t begin, size_t end) {
        std::lock_guard<std::mutex> lock(mutex);
        ranges.emplace_back(begin, end);
      });
      std::sort(ranges.begin(), ranges.end());
      // The expected ranges, written out: [0, 100), [100, 200), ..., the last one short.
      std::vector<std::pair<size_t, size_t>> expected;
      for (size_t begin = 0; begin < count; begin += 100) {
        expected.emplace_back(begin, std::min(count, begin + 100));
      }
      CHECK(ranges == expected);
    }
  }
}

TEST_CASE("A pool is reusable across many calls") {
  for (size_t threads = 1; threads <= 4; ++threads) {
    INFO(threads << " threads");
    ThreadPool pool(threads);
    std::vector<std::atomic<uint64_t>> sums(257);
    for (size_t call = 0; call < 2000; ++call) {
      const size_t count = call % sums.size();
      pool.ParallelFor(
          count, [&](size_t index) { sums[index].fetch_add(call + 1, std::memory_order_relaxed); });
    }
    // Index i ran in every call whose count exceeded i: calls c with c % 257 > i.
    size_t mismatches = 0;
    for (size_t index = 0; index < sums.size(); ++index) {
      uint64_t expected = 0;
      for (size_t call = 0; call < 2000; ++call) {
        if (call % sums.size() > index) expected += call + 1;
      }
      mismatches += sums[index].load() != expected;
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("The caller sees all writes of the workers when ParallelFor returns") {
  ThreadPool pool(4);
  std::vector<size_t> values(100003, 0);  // plain writes: ParallelFor must publish them
  for (size_t round = 1; round <= 20; ++round) {
    pool.ParallelFor(values.size(), [&](size_t index) { values[index] += index ^ round; });
  }
  size_t mismatches = 0;
  for (size_t index = 0; index < values.size(); ++index) {
    size_t expected = 0;
    for (size_t round = 1; round <= 20; ++round) expected += index ^ round;
    mismatches += values[index] != expected;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("Pools shut down cleanly with idle workers") {
  for (size_t threads = 1; threads <= 8; ++threads) {
    ThreadPool never_used(threads);
    CHECK(never_used.num_threads() == threads);
  }
  for (int repeat = 0; repeat < 50; ++repeat) {
    ThreadPool used(4);
    std::atomic<size_t> ran{0};
    used.ParallelFor(8, [&](size_t) { ran.fetch_add(1); });
    CHECK(ran.load() == 8);
    // Workers are idle again here; destruction must wake and join them.
  }
}

// 1024 threads of 8 MiB stacks need 8 GiB of address space; under a 4 GiB limit a thread fails
// to start partway. The workers started before it must be stopped and joined (a joinable
// std::thread destroyed calls std::terminate, which killed the child before), and the error must
// name the request and the system's reason.
// [native]: under qemu-user the address-space limit is the emulator's to keep (it accepts the
// call without applying it), and a thousand emulated threads spinning take minutes.
TEST_CASE("A pool whose threads cannot all start throws and leaves nothing running", "[native]") {
  if (test::kUnderAddressSanitizer) {
    SUCCEED("skipped: an address-space limit breaks AddressSanitizer's shadow memory");
    return;
  }
  const test::ChildOutcome outcome = test::RunUnderAddressSpaceLimit(size_t{4} << 30, [] {
    try {
      ThreadPool pool(1024);
      return std::string("started ") + std::to_string(pool.num_threads()) + " threads";
    } catch (const std::system_error& error) {
      // The process goes on: a small pool still starts and runs.
      ThreadPool small(2);
      std::atomic<size_t> ran{0};
      small.ParallelFor(4, [&](size_t) { ran.fetch_add(1); });
      return std::string(error.what()) + "; then ran " + std::to_string(ran.load());
    }
  });
  CHECK(outcome.exit_status == 0);
  INFO(outcome.report);
  CHECK_THAT(outcome.report, Catch::StartsWith("could not start a pool of 1024 threads: thread "));
  CHECK_THAT(outcome.report, Catch::Contains("failed to start: Resource temporarily unavailable"));
  CHECK_THAT(outcome.report, Catch::EndsWith("; then ran 4"));
}

}  // namespace
}  // namespace swarm
