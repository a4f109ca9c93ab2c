// Lane arrays owned by a benchmark: one aligned, zeroed block per quantity set, viewed as a
// LanesView (swarm/kernels/base/views.h) with each array padded to whole vectors.
#pragma once

#include <algorithm>
#include <cstddef>

#include "hwy/aligned_allocator.h"
#include "swarm/kernels/base/views.h"

namespace swarm::bench {

struct Lanes {
  hwy::AlignedFreeUniquePtr<float[]> storage;
  LanesView view;
};

inline Lanes MakeLanes(size_t robots, size_t arrays) {
  const size_t stride = RoundUpToVector<float>(robots);
  Lanes lanes{hwy::AllocateAligned<float>(std::max<size_t>(1, arrays) * stride), {}};
  std::fill(lanes.storage.get(), lanes.storage.get() + std::max<size_t>(1, arrays) * stride, 0.0f);
  lanes.view = {lanes.storage.get(), robots, stride, arrays};
  return lanes;
}

}  // namespace swarm::bench
