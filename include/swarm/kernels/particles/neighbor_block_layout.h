// Neighbour lists laid out for kernels that give each particle a vector lane.
//
// The interaction kernels (swarm/kernels/particles/interaction_kernels.h) process a vector of
// consecutive particles at once, each lane walking its own neighbour list: step k loads the k-th
// neighbour of every lane and gathers that neighbour's fields. The lists are stored in blocks of 16
// particles (kBlockLanes): block b holds particles [16 b, 16 b + 16), its entry k of lane l at
// entries[block_start[b] + 16 k + l], for k < block_depth[b] (the longest list of the block).
// Entries past a particle's list, and the lanes of the last block past the particle count, are -1.
// A vector of L <= 16 lanes reads its lanes' part of each row of 16.
//
// Every particle's sum over its neighbours thus runs in list order (ascending index) in its own
// lane, one neighbour at a time: the same additions in the same order on every vector width and
// thread count. Lists may hold particles a little beyond a kernel's radius (a skin kept so the
// lists outlive a few steps); kernels test the distance of every entry.
#pragma once

#include <cstddef>
#include <cstdint>

namespace swarm {

inline constexpr size_t kBlockLanes = 16;

struct NeighborBlocksView {
  const int32_t* entries = nullptr;
  const int64_t* block_start = nullptr;   // one per block
  const uint32_t* block_depth = nullptr;  // one per block
  size_t particles = 0;                   // the lists' particle count

  size_t blocks() const { return (particles + kBlockLanes - 1) / kBlockLanes; }
};

}  // namespace swarm
