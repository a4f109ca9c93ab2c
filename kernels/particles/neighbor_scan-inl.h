// Per-target plumbing of the interaction kernels (swarm/kernels/particles/interaction_kernels.h):
// walking the particles of a cell-ordered store cell by cell, the candidates of each cell (its 27
// cells' particles) copied side by side, and sums over neighbours that give the same bits on every
// vector width.
//
// Sums over neighbours. A particle's neighbours are its candidates within the radius, in candidate
// order (ascending storage index), and its sum over them must not depend on the vector width. The
// scan therefore keeps 16 partial sums, one per candidate slot modulo 16 ("virtual lanes"): a
// vector of L candidates (L = 1, 4, 8 or 16: CappedTag<float, 16> on every target) adds into the
// L partial sums of its slots, selecting (not adding zero to) the lanes that are not neighbours,
// and the 16 are combined by a fixed tree (LaneSums::Total). Every target performs the same
// additions in the same order.

#if defined(SWARM_KERNELS_NEIGHBOR_SCAN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_NEIGHBOR_SCAN_INL_H_
#undef SWARM_KERNELS_NEIGHBOR_SCAN_INL_H_
#else
#define SWARM_KERNELS_NEIGHBOR_SCAN_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "hwy/highway.h"
#include "kernels/particles/neighbor_search-inl.h"
#include "swarm/kernels/particles/neighbor_search.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The vector type of neighbour scans: at most 16 lanes, so each vector's slots fall in one block
// of 16 virtual lanes.
using ScanTag = hn::CappedTag<float, 16>;
inline constexpr size_t kVirtualLanes = 16;

// kQuantities sums over neighbours, each as 16 partial sums by candidate slot modulo 16.
template <size_t kQuantities>
struct LaneSums {
  alignas(kAlignBytes) float partial[kQuantities][kVirtualLanes];

  void Clear() { std::fill(&partial[0][0], &partial[0][0] + kQuantities * kVirtualLanes, 0.0f); }
  // Adds `term` of the lanes in `mask` to quantity q's partial sums of candidate slots
  // slot .. slot + L (slot is a multiple of L).
  template <class D, class M, class V>
  HWY_INLINE void Add(D d, size_t q, size_t slot, M mask, V term) {
    float* HWY_RESTRICT sums = partial[q] + slot % kVirtualLanes;
    const auto old = hn::Load(d, sums);
    hn::Store(hn::IfThenElse(mask, hn::Add(old, term), old), d, sums);
  }
  // The sum of quantity q: a fixed tree over the 16 partial sums.
  float Total(size_t q) const {
    float t[8];
    for (size_t i = 0; i < 8; ++i) t[i] = partial[q][i] + partial[q][i + 8];
    for (size_t i = 0; i < 4; ++i) t[i] = t[i] + t[i + 4];
    for (size_t i = 0; i < 2; ++i) t[i] = t[i] + t[i + 2];
    return t[0] + t[1];
  }
};

// For every particle s in [begin, end) of a cell-ordered store, cell by cell: clears pass.sums
// (a LaneSums), calls pass.Scan(candidates, s) once per chunk of s's candidates, then
// pass.Finish(s).
// `sources` are the fields the pass reads from its candidates (x, y, z, ...).
template <size_t kFields, class Pass>
HWY_INLINE void ForEachParticleByCell(const SortedGrid& sorted, size_t begin, size_t end,
                                      const float* const (&sources)[kFields], Pass& pass) {
  const ScanTag d;
  PointRun runs[kMaxRuns];
  CandidateFields<kFields> candidates;
  uint32_t bucket = BucketOf(sorted, begin);
  for (size_t s = begin; s < end;) {
    const CellGroup group = GroupAt(sorted, s, end, &bucket);
    const size_t run_count = CollectRuns(sorted, group.cell, runs);
    const size_t total = RunPoints(runs, run_count);
    const bool one_chunk = total <= CandidateFields<kFields>::kCapacity;
    const size_t particles = sorted.points.count;
    if (one_chunk) candidates.Fill(d, sources, particles, runs, run_count, 0);
    for (; s < group.end; ++s) {
      pass.sums.Clear();
      if (one_chunk) {
        pass.Scan(candidates, s);
      } else {
        for (size_t chunk = 0; chunk < total; chunk += CandidateFields<kFields>::kCapacity) {
          candidates.Fill(d, sources, particles, runs, run_count, chunk);
          pass.Scan(candidates, s);
        }
      }
      pass.Finish(s);
    }
  }
}

// For each vector of candidates: body(j, slot, near, dx, dy, dz, distance_squared), where j is
// the vector's first position in the chunk, slot its candidate slot, near the mask of candidates
// other than `self` within the radius, and d = candidate - (px, py, pz).
template <size_t kFields, class Body>
HWY_INLINE void ForEachNearCandidate(const CandidateFields<kFields>& candidates, float px, float py,
                                     float pz, float radius_squared, int32_t self,
                                     const Body& body) {
  const ScanTag d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t lanes = hn::Lanes(d);
  const auto x = hn::Set(d, px);
  const auto y = hn::Set(d, py);
  const auto z = hn::Set(d, pz);
  const auto limit = hn::Set(d, radius_squared);
  const auto self_index = hn::Set(di, self);
  for (size_t j = 0; j < candidates.count; j += lanes) {
    const auto dx = hn::Sub(hn::Load(d, candidates.field[0] + j), x);
    const auto dy = hn::Sub(hn::Load(d, candidates.field[1] + j), y);
    const auto dz = hn::Sub(hn::Load(d, candidates.field[2] + j), z);
    const auto distance_squared =
        hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
    const auto other = hn::RebindMask(d, hn::Ne(hn::Load(di, candidates.index + j), self_index));
    const auto near = hn::And(hn::Le(distance_squared, limit), other);
    // Most vectors of a cell's candidates hold a few neighbours or none (a sphere fills 15% of
    // its 27 cells): skipping the empty ones saves their arithmetic, and adds nothing a select
    // would not have discarded, so the sums keep their bits.
    if (hn::AllFalse(d, near)) continue;
    body(j, candidates.first + j, near, dx, dy, dz, distance_squared);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_NEIGHBOR_SCAN_INL_H_
