// Neighbour lists in the block layout of the interaction kernels
// (swarm/kernels/particles/neighbor_block_layout.h).
//
//   NeighborBlocks blocks(accountant);
//   if (Status s = blocks.Build(grid, radius, pool); !s.ok()) ...
//   GranularForces(positions, blocks.view(), ...);
//
// Build counts every sorted point's neighbours within the radius, lays the blocks out (16 points
// each, row k of a block holding each point's k-th neighbour, as deep as the block's longest
// list) and lists the neighbours straight into them. Indices are the grid's sorted indices, which
// are storage indices once the particles are stored in the grid's order
// (NeighborGrid::ReorderInto). Memory: accounted; it grows only when a build needs more than the
// last, so steady-state rebuilds allocate nothing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/particles/neighbor_block_layout.h"
#include "swarm/particles/neighbor_grid.h"

namespace swarm {

class NeighborBlocks {
 public:
  explicit NeighborBlocks(MemoryAccountant& accountant);
  NeighborBlocks() = default;  // empty blocks that must be assigned before use

  // The neighbours within `radius` (<= the grid's) of every point of `grid`. Errors: the radius
  // (as NeighborGrid::ListNeighbors), and the memory budget (the message names the entries); the
  // blocks are then empty.
  Status Build(const NeighborGrid& grid, float radius, ThreadPool& pool);

  NeighborBlocksView view() const;
  size_t particles() const { return particles_; }
  // Neighbours listed (the rows' total length, without the blocks' padding).
  size_t neighbors() const { return neighbors_; }
  float radius() const { return radius_; }
  size_t allocated_bytes() const;

 private:
  MemoryAccountant* accountant_ = nullptr;
  PaddedArray<uint32_t> counts_;  // per point
  PaddedArray<int64_t> block_start_;
  PaddedArray<uint32_t> block_depth_;
  PaddedArray<int32_t> entries_;
  size_t particles_ = 0;
  size_t neighbors_ = 0;
  float radius_ = 0.0f;
};

}  // namespace swarm
