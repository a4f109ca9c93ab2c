// The frames a batched vision kernel computes, so the engine can hand each thread whole frames
// of one batch while choices that depend on the whole batch (non-temporal stores for outputs
// that cannot stay in cache) are still made for the whole batch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace swarm {

// Frames [begin, end) of a batch; end is clamped to the batch's count.
struct FrameRange {
  size_t begin = 0;
  size_t end = SIZE_MAX;

  size_t EndFor(size_t count) const { return std::min(end, count); }
};

}  // namespace swarm
