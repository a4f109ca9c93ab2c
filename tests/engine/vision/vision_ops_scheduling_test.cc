// Tests for the row and frame scheduling of the vision entry points
// (engine/vision/vision_ops_checks.h): every output row or frame is computed exactly once whatever
// the thread count, each call names a thread of the pool, and a slow thread hands its remaining
// rows to the other one.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/vision/vision_ops_checks.h"
#include "swarm/core/thread_pool.h"

namespace swarm {
namespace {

using vision_internal::RunBands;
using vision_internal::RunFrames;

TEST_CASE("RunBands computes every row exactly once for any thread count and height") {
  for (size_t threads : {1, 2, 3, 4, 5}) {
    ThreadPool pool(threads);
    for (size_t height : {1, 2, 3, 7, 16, 17, 240, 1081}) {
      INFO(threads << " threads, height " << height);
      std::mutex mutex;
      std::vector<int> times(height, 0);
      bool thread_in_range = true;
      RunBands(pool, height, [&](size_t thread, RowRange rows) {
        std::lock_guard<std::mutex> lock(mutex);
        thread_in_range = thread_in_range && thread < threads && rows.begin < rows.end;
        for (size_t y = rows.begin; y < rows.end && y < height; ++y) ++times[y];
      });
      CHECK(thread_in_range);
      CHECK(std::count(times.begin(), times.end(), 1) == static_cast<ptrdiff_t>(height));
    }
  }
}

TEST_CASE("RunBands gives a slow thread's remaining rows to its partner") {
  ThreadPool pool(2);
  const size_t height = 1080;
  std::mutex mutex;
  size_t rows_by_thread[2] = {0, 0};
  RunBands(pool, height, [&](size_t thread, RowRange rows) {
    if (thread == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard<std::mutex> lock(mutex);
    rows_by_thread[thread] += rows.end - rows.begin;
  });
  CHECK(rows_by_thread[0] + rows_by_thread[1] == height);
  // With static bands each thread would compute 540 rows; the sleeping thread gets through a
  // few 67-row chunks at most while the other finishes the rest.
  CHECK(rows_by_thread[1] < height / 2);
  CHECK(rows_by_thread[0] > height / 2);
}

TEST_CASE("RunFrames covers every (frame, row) once, in runs of frames or frame bands") {
  for (size_t threads : {1, 2, 3}) {
    ThreadPool pool(threads);
    for (size_t count : {1, 2, 5, 64}) {
      INFO(threads << " threads, " << count << " frames");
      const size_t height = 9;
      std::mutex mutex;
      std::vector<int> times(count * height, 0);
      RunFrames(pool, count, height, [&](size_t thread, FrameRange frames, RowRange rows) {
        std::lock_guard<std::mutex> lock(mutex);
        CHECK(thread < threads);
        for (size_t f = frames.begin; f < frames.end; ++f) {
          for (size_t y = rows.begin; y < std::min(rows.end, height); ++y) ++times[f * height + y];
        }
      });
      CHECK(std::count(times.begin(), times.end(), 1) == static_cast<ptrdiff_t>(times.size()));
    }
  }
}

}  // namespace
}  // namespace swarm
