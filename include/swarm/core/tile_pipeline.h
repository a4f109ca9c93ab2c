// Ahead-of-time fusion: run several kernels on one cache-sized tile before moving to the next.
//
// Running stages pass by pass streams the whole state through memory once per stage; at 1e7
// particles that is 3x the bytes for a 3-stage step. RunFused instead cuts [0, count) into tiles
// of `tile_elements` (default 4096: a tile of positions + velocities + ages is ~150 KB, well
// inside L2) and runs every stage on tile k before tile k + 1, so each tile comes from DRAM once.
// Stages are plain callables `void(size_t begin, size_t count)` fused at compile time: no JIT,
// no type erasure, no allocation per call.
//
// Tiles are distributed over the pool's threads with its static partition. A stage must only
// touch elements [begin, begin + count) of its arrays, so results do not depend on the number of
// threads or on the tile size.
#pragma once

#include <algorithm>
#include <cstddef>

#include "swarm/core/thread_pool.h"
#include "swarm/kernels/base/views.h"

namespace swarm {

inline constexpr size_t kDefaultTileElements = 4096;
inline constexpr size_t kDefaultMinElementsPerThread = 32768;

struct TileSchedule {
  // A multiple of kPadFloats; a multiple of kPadElements<uint8_t> (64) if a stage slices byte
  // arrays, since views may only be sliced at multiples of their padding
  // (swarm/kernels/base/views.h).
  size_t tile_elements = kDefaultTileElements;
  // Fewer threads take part when each would get less than this: waking a worker costs about as
  // much as stepping 30,000 particles. Results do not depend on it.
  size_t min_elements_per_thread = kDefaultMinElementsPerThread;

  size_t TileCount(size_t count) const { return (count + tile_elements - 1) / tile_elements; }
  size_t Begin(size_t tile) const { return tile * tile_elements; }
  size_t CountOf(size_t tile, size_t count) const {
    return std::min(tile_elements, count - Begin(tile));
  }
  size_t MaxThreads(size_t count) const {
    return std::max<size_t>(1, count / std::max<size_t>(1, min_elements_per_thread));
  }
};

// Every stage on tile 0, then every stage on tile 1, ...
template <class... Stages>
void RunFused(ThreadPool& pool, size_t count, TileSchedule schedule, const Stages&... stages) {
  SWARM_ASSERT(schedule.tile_elements > 0 && schedule.tile_elements % kPadFloats == 0);
  pool.ParallelFor(
      schedule.TileCount(count),
      [&](size_t tile) {
        const size_t begin = schedule.Begin(tile);
        const size_t n = schedule.CountOf(tile, count);
        (stages(begin, n), ...);
      },
      schedule.MaxThreads(count));
}

// The same stages pass by pass (stage 0 over every tile, then stage 1, ...), for comparison.
template <class... Stages>
void RunStageByStage(ThreadPool& pool, size_t count, TileSchedule schedule,
                     const Stages&... stages) {
  (RunFused(pool, count, schedule, stages), ...);
}

}  // namespace swarm
