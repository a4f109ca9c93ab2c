#include "swarm/particles/neighbor_blocks.h"

#include <algorithm>
#include <string>

#include "hwy/base.h"
#include "swarm/core/text.h"

namespace swarm {
namespace {

// Blocks per task of the parallel loops: a few thousand points each.
constexpr size_t kBlocksPerTask = 256;

template <class Task>
void ForEachBlockRange(ThreadPool& pool, size_t blocks, const Task& task) {
  const size_t tasks = (blocks + kBlocksPerTask - 1) / kBlocksPerTask;
  pool.ParallelFor(tasks, [&](size_t t) {
    const size_t begin = t * kBlocksPerTask;
    task(begin, std::min(blocks, begin + kBlocksPerTask));
  });
}

}  // namespace

NeighborBlocks::NeighborBlocks(MemoryAccountant& accountant)
    : accountant_(&accountant), lists_(accountant) {
  block_start_ = PaddedArray<int64_t>::Create(accountant, 0).value();
  block_depth_ = PaddedArray<uint32_t>::Create(accountant, 0).value();
  entries_ = PaddedArray<int32_t>::Create(accountant, 0).value();
}

Status NeighborBlocks::Build(const NeighborGrid& grid, float radius, ThreadPool& pool) {
  particles_ = 0;
  if (Status s = grid.ListNeighbors(radius, pool, lists_); !s.ok()) return s;
  const size_t count = grid.size();
  const size_t blocks = (count + kBlockLanes - 1) / kBlockLanes;
  const auto row_length = [&](size_t s) {
    return static_cast<uint32_t>(lists_.end(s) - lists_.begin(s));
  };
  if (Status s = block_depth_.Resize(blocks); !s.ok()) return s;
  if (Status s = block_start_.Resize(blocks + 1); !s.ok()) return s;
  uint32_t* depth = block_depth_.view().data;
  ForEachBlockRange(pool, blocks, [&](size_t begin, size_t end) {
    for (size_t b = begin; b < end; ++b) {
      uint32_t longest = 0;
      for (size_t s = b * kBlockLanes; s < std::min(count, (b + 1) * kBlockLanes); ++s) {
        longest = std::max(longest, row_length(s));
      }
      depth[b] = longest;
    }
  });
  int64_t* start = block_start_.view().data;
  int64_t total = 0;
  for (size_t b = 0; b < blocks; ++b) {
    start[b] = total;
    total += int64_t{depth[b]} * int64_t{kBlockLanes};
  }
  start[blocks] = total;
  const size_t needed = static_cast<size_t>(total);
  if (entries_.capacity() < needed) {
    // The old blocks are freed first, so old and new never coexist.
    entries_ = PaddedArray<int32_t>();
    const size_t wanted = needed + needed / 8;
    Result<PaddedArray<int32_t>> grown = PaddedArray<int32_t>::Create(*accountant_, wanted);
    if (!grown.ok()) {
      const Status& s = grown.status();
      return Status(s.code(), "neighbour blocks need " + std::to_string(needed) + " entries (" +
                                  FormatBytes(wanted * sizeof(int32_t)) + "): " + s.message());
    }
    entries_ = std::move(grown).value();
  }
  if (Status s = entries_.Resize(needed); !s.ok()) return s;
  int32_t* entries = entries_.view().data;
  const int32_t* indices = lists_.indices();
  ForEachBlockRange(pool, blocks, [&](size_t begin, size_t end) {
    for (size_t b = begin; b < end; ++b) {
      // The block's rows, each written whole (16 consecutive entries) from its lanes' lists.
      const int32_t* row[kBlockLanes];
      uint32_t length[kBlockLanes];
      for (size_t lane = 0; lane < kBlockLanes; ++lane) {
        const size_t s = b * kBlockLanes + lane;
        row[lane] = s < count ? indices + lists_.begin(s) : nullptr;
        length[lane] = s < count ? row_length(s) : 0;
      }
      int32_t* HWY_RESTRICT to = entries + start[b];
      for (uint32_t k = 0; k < depth[b]; ++k, to += kBlockLanes) {
        for (size_t lane = 0; lane < kBlockLanes; ++lane) {
          to[lane] = k < length[lane] ? row[lane][k] : -1;
        }
      }
    }
  });
  particles_ = count;
  radius_ = radius;
  return {};
}

NeighborBlocksView NeighborBlocks::view() const {
  return {entries_.view().data, block_start_.view().data, block_depth_.view().data, particles_};
}

size_t NeighborBlocks::allocated_bytes() const {
  return lists_.allocated_bytes() + block_start_.capacity() * sizeof(int64_t) +
         block_depth_.capacity() * sizeof(uint32_t) + entries_.capacity() * sizeof(int32_t);
}

}  // namespace swarm
