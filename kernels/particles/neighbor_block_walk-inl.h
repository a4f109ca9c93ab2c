// Per-target plumbing of the interaction kernels (swarm/kernels/particles/interaction_kernels.h): a
// vector of consecutive particles at a time, each lane walking its own neighbour list in the block
// layout of swarm/kernels/particles/neighbor_block_layout.h.
//
// A particle's sums over its neighbours live in its lane and take one neighbour per step, in list
// order; a lane whose list is shorter (or whose entry is beyond the kernel's radius) keeps its
// sums by a select, not by adding zero. Every vector width thus performs the same additions in
// the same order for every particle.

#if defined(SWARM_KERNELS_NEIGHBOR_BLOCKS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_NEIGHBOR_BLOCKS_INL_H_
#undef SWARM_KERNELS_NEIGHBOR_BLOCKS_INL_H_
#else
#define SWARM_KERNELS_NEIGHBOR_BLOCKS_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "swarm/kernels/particles/neighbor_block_layout.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Vectors of particles: at most a block's 16 lanes, so a vector never straddles two blocks (lane
// counts are powers of two).
using ParticleTag = hn::CappedTag<float, kBlockLanes>;

// Calls body(s, store, row, depth) for each vector of particles s, s + 1, ... in [begin, end)
// (begin a multiple of kBlockLanes): row points at the vector's first lane in row 0 of its
// block, row k is row + k * kBlockLanes, and depth is the block's row count. store writes the
// vector's outputs (the last vector's lanes past `end` are not written).
template <class Body>
HWY_INLINE void ForEachParticleVector(const NeighborBlocksView& blocks, size_t begin, size_t end,
                                      const Body& body) {
  ForEachVectorIn(ParticleTag(), begin, end, [&](size_t s, auto store) HWY_ATTR {
    const size_t block = s / kBlockLanes;
    body(s, store, blocks.entries + blocks.block_start[block] + s % kBlockLanes,
         static_cast<size_t>(blocks.block_depth[block]));
  });
}

// The neighbours of row k of the vector's lanes: `listed` is the mask of lanes that have a k-th
// neighbour; the indices of the other lanes are 0 (any readable particle), for gathers.
template <class DI>
HWY_INLINE hn::Vec<DI> NeighborIndices(DI di, const int32_t* HWY_RESTRICT row, size_t k,
                                       hn::Mask<DI>& listed) {
  const auto index = hn::LoadU(di, row + k * kBlockLanes);
  listed = hn::Gt(index, hn::Set(di, -1));
  return hn::IfThenElseZero(listed, index);
}

// The offsets d = neighbour - particle of one row and the mask of the lanes whose neighbour lies
// within sqrt(radius_squared); returns |d|^2.
template <class D, class VI, class M>
HWY_INLINE hn::Vec<D> NeighborOffsets(D d, const float* HWY_RESTRICT const (&position)[3], VI index,
                                      M listed, hn::Vec<D> px, hn::Vec<D> py, hn::Vec<D> pz,
                                      hn::Vec<D> radius_squared, hn::Vec<D>& dx, hn::Vec<D>& dy,
                                      hn::Vec<D>& dz, hn::Mask<D>& near) {
  dx = hn::Sub(hn::GatherIndex(d, position[0], index), px);
  dy = hn::Sub(hn::GatherIndex(d, position[1], index), py);
  dz = hn::Sub(hn::GatherIndex(d, position[2], index), pz);
  const auto distance_squared = hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
  near = hn::And(hn::RebindMask(d, listed), hn::Le(distance_squared, radius_squared));
  return distance_squared;
}

// sum + term in the lanes of `mask`, sum elsewhere.
template <class M, class V>
HWY_INLINE V AddWhere(M mask, V sum, V term) {
  return hn::IfThenElse(mask, hn::Add(sum, term), sum);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_NEIGHBOR_BLOCKS_INL_H_
