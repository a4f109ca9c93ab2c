#include "swarm/particles/neighbor_blocks.h"

#include <algorithm>

#include "swarm/kernels/particles/neighbor_search.h"

namespace swarm {
namespace {

// Blocks per task of the parallel loops: a few thousand points each.
constexpr size_t kBlocksPerTask = 256;

}  // namespace

NeighborBlocks::NeighborBlocks(MemoryAccountant& accountant) : accountant_(&accountant) {
  counts_ = PaddedArray<uint32_t>::Create(accountant, 0).value();
  block_start_ = PaddedArray<int64_t>::Create(accountant, 0).value();
  block_depth_ = PaddedArray<uint32_t>::Create(accountant, 0).value();
  entries_ = PaddedArray<int32_t>::Create(accountant, 0).value();
}

Status NeighborBlocks::Build(const NeighborGrid& grid, float radius, ThreadPool& pool) {
  particles_ = 0;
  neighbors_ = 0;
  const size_t count = grid.size();
  const size_t blocks = (count + kBlockLanes - 1) / kBlockLanes;
  // Rows are counted first, so the blocks are laid out once, at their final size.
  if (Status s = counts_.Resize(count); !s.ok()) return s;
  if (Status s = grid.CountNeighbors(radius, pool, counts_.span()); !s.ok()) return s;
  if (Status s = block_depth_.Resize(blocks); !s.ok()) return s;
  if (Status s = block_start_.Resize(blocks + 1); !s.ok()) return s;
  const uint32_t* counts = counts_.view().data;
  uint32_t* depth = block_depth_.view().data;
  pool.ParallelForRanges(blocks, kBlocksPerTask, [&](size_t begin, size_t end) {
    for (size_t b = begin; b < end; ++b) {
      const uint32_t* first = counts + b * kBlockLanes;
      depth[b] = *std::max_element(first, counts + std::min(count, (b + 1) * kBlockLanes));
    }
  });
  int64_t* start = block_start_.view().data;
  int64_t total = 0;
  size_t listed = 0;
  for (size_t b = 0; b < blocks; ++b) {
    start[b] = total;
    total += int64_t{depth[b]} * int64_t{kBlockLanes};
  }
  start[blocks] = total;
  for (size_t s = 0; s < count; ++s) listed += counts[s];
  const size_t needed = static_cast<size_t>(total);
  if (entries_.capacity() < needed) {
    if (Status s =
            NeighborGrid::ReplaceEntries(*accountant_, entries_, needed, needed + needed / 8);
        !s.ok()) {
      return s;
    }
  }
  if (Status s = entries_.Resize(needed); !s.ok()) return s;
  int32_t* entries = entries_.view().data;
  const SortedGrid sorted = grid.Sorted();
  pool.ParallelForRanges(blocks, kBlocksPerTask, [&](size_t begin, size_t end) {
    ListNeighborBlockRows(sorted, radius, begin * kBlockLanes, std::min(count, end * kBlockLanes),
                          start, depth, entries);
  });
  // The last block's lanes past the count list nothing.
  if (count % kBlockLanes != 0) {
    int32_t* last = entries + start[blocks - 1];
    for (size_t k = 0; k < depth[blocks - 1]; ++k) {
      std::fill(last + k * kBlockLanes + count % kBlockLanes, last + (k + 1) * kBlockLanes, -1);
    }
  }
  particles_ = count;
  neighbors_ = listed;
  radius_ = radius;
  return {};
}

NeighborBlocksView NeighborBlocks::view() const {
  return {entries_.view().data, block_start_.view().data, block_depth_.view().data, particles_};
}

size_t NeighborBlocks::allocated_bytes() const {
  return counts_.capacity() * sizeof(uint32_t) + block_start_.capacity() * sizeof(int64_t) +
         block_depth_.capacity() * sizeof(uint32_t) + entries_.capacity() * sizeof(int32_t);
}

}  // namespace swarm
