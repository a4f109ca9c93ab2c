// Per-target code of the neighbour search kernels (see swarm/kernels/particles/neighbor_search.h).
//
// A query walks the sorted points one at a time and tests the candidates of its 27 cells a vector
// at a time: the candidates of a row of three cells are contiguous in sorted order, so each run
// is plain vector loads, and the ones within the radius leave through Compress + a whole-vector
// store into the row (faster than a masked compress-store on every x86 core swarm runs on).
// Points of one cell share their runs, which are collected once per cell.

#if defined(SWARM_KERNELS_NEIGHBOR_GRID_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_NEIGHBOR_GRID_INL_H_
#undef SWARM_KERNELS_NEIGHBOR_GRID_INL_H_
#else
#define SWARM_KERNELS_NEIGHBOR_GRID_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/base/row_prefetch.h"
#include "swarm/kernels/particles/neighbor_block_layout.h"
#include "swarm/kernels/particles/neighbor_search.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline PointBounds FindPointBoundsImpl(const ConstVec4View& points) {
  PointBounds bounds;
  bounds.first_non_finite = points.count;
  if (points.count == 0) return bounds;
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  for (size_t axis = 0; axis < 3; ++axis) {
    const float* HWY_RESTRICT lane = points.Lane(axis);
    // Lanes past the count take the first element, which changes neither extreme.
    const auto first = hn::Set(d, lane[0]);
    auto low = first;
    auto high = first;
    auto finite = hn::Eq(first, first);
    for (size_t i = 0; i < points.count; i += lanes) {
      const auto v = hn::IfThenElse(hn::FirstN(d, points.count - i), hn::LoadU(d, lane + i), first);
      finite = hn::And(finite, hn::IsFinite(v));
      // Min and Max only see finite values when the bounds are used (see neighbor_grid.h).
      low = hn::Min(low, v);
      high = hn::Max(high, v);
    }
    bounds.min[axis] = hn::GetLane(hn::MinOfLanes(d, low));
    bounds.max[axis] = hn::GetLane(hn::MaxOfLanes(d, high));
    if (!hn::AllTrue(d, finite)) bounds.first_non_finite = 0;  // found below
  }
  if (bounds.first_non_finite == 0) {
    size_t i = 0;
    while (i < points.count && std::isfinite(points.x()[i]) && std::isfinite(points.y()[i]) &&
           std::isfinite(points.z()[i])) {
      ++i;
    }
    bounds.first_non_finite = i;
  }
  return bounds;
}

// The cells of a vector of points, one axis: floor((double(p) - origin) * inverse) as int32.
template <class DD, class DF>
HWY_INLINE hn::Vec<hn::Rebind<int32_t, DD>> CellAxis(DD dd, DF df, const float* HWY_RESTRICT p,
                                                     double origin, double inverse) {
  const auto offset = hn::Sub(hn::PromoteTo(dd, hn::LoadU(df, p)), hn::Set(dd, origin));
  return hn::DemoteTo(hn::Rebind<int32_t, DD>(), hn::Floor(hn::Mul(offset, hn::Set(dd, inverse))));
}

inline void ComputeCellBucketsImpl(const ConstVec4View& points, const CellGrid& grid,
                                   uint32_t* HWY_RESTRICT buckets) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const hn::Rebind<uint32_t, decltype(dd)> du;
  const size_t lanes = hn::Lanes(dd);
  const float* HWY_RESTRICT px = points.x();
  const float* HWY_RESTRICT py = points.y();
  const float* HWY_RESTRICT pz = points.z();
  const double inverse = grid.inverse_cell_size;
  const auto nx = hn::Set(du, static_cast<uint32_t>(grid.dims[0]));
  const auto ny = hn::Set(du, static_cast<uint32_t>(grid.dims[1]));
  const auto mask = hn::Set(du, grid.bucket_count - 1);
  const auto y_factor = hn::Set(du, 0x9E3779B1u);
  const auto z_factor = hn::Set(du, 0x85EBCA77u);
  for (size_t i = 0; i < points.count; i += lanes) {
    const auto cx = hn::BitCast(du, CellAxis(dd, df, px + i, grid.origin[0], inverse));
    const auto cy = hn::BitCast(du, CellAxis(dd, df, py + i, grid.origin[1], inverse));
    const auto cz = hn::BitCast(du, CellAxis(dd, df, pz + i, grid.origin[2], inverse));
    const auto bucket =
        grid.hashed
            ? hn::And(hn::Add(hn::Xor(hn::Mul(cy, y_factor), hn::Mul(cz, z_factor)), cx), mask)
            : hn::Add(hn::Mul(hn::Add(hn::Mul(cz, ny), cy), nx), cx);
    hn::BlendedStore(bucket, hn::FirstN(du, points.count - i), du, buckets + i);
  }
}

inline void GatherFloatsImpl(const float* HWY_RESTRICT from, const uint32_t* HWY_RESTRICT order,
                             float* HWY_RESTRICT to, size_t count) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  ForEachVector(d, count, [&](size_t s, auto store) HWY_ATTR {
    // Past the count only the lanes of the last vector are read (FirstN), never gathered from.
    const auto valid = hn::FirstN(di, count - s);
    const auto index =
        hn::IfThenElseZero(valid, hn::LoadU(di, reinterpret_cast<const int32_t*>(order) + s));
    store(hn::GatherIndex(d, from, index), d, to + s);
  });
}

// A point's cell, with the same operations as CellAxis.
struct CellCoord {
  int32_t x, y, z;
  bool operator==(const CellCoord&) const = default;
};
inline int32_t CellAxisScalar(float p, double origin, double inverse) {
  return static_cast<int32_t>(std::floor((static_cast<double>(p) - origin) * inverse));
}

inline constexpr size_t kMaxRuns = 18;  // 9 rows, each split in two by a hashed table's wrap

// The runs of sorted points in the 3 x 3 x 3 cells around `cell`, in ascending order and
// disjoint; returns how many.
inline size_t CollectRuns(const SortedGrid& sorted, CellCoord cell, PointRun* runs) {
  const CellGrid& grid = sorted.grid;
  const uint32_t* HWY_RESTRICT start = sorted.bucket_start;
  const int32_t x0 = std::max(cell.x - 1, 0);
  const int32_t x1 = std::min(cell.x + 1, grid.dims[0] - 1);
  size_t count = 0;
  if (!grid.hashed) {
    for (int32_t z = std::max(cell.z - 1, 0); z <= std::min(cell.z + 1, grid.dims[2] - 1); ++z) {
      for (int32_t y = std::max(cell.y - 1, 0); y <= std::min(cell.y + 1, grid.dims[1] - 1); ++y) {
        const uint32_t row = (static_cast<uint32_t>(z) * static_cast<uint32_t>(grid.dims[1]) +
                              static_cast<uint32_t>(y)) *
                             static_cast<uint32_t>(grid.dims[0]);
        const PointRun run{start[row + x0], start[row + x1 + 1]};
        if (run.begin < run.end) runs[count++] = run;
      }
    }
    return count;
  }
  // Hashed: the rows' bucket spans (split where they wrap), sorted and merged, since distinct
  // rows may share buckets and a bucket's points must be visited once.
  const uint32_t last = grid.bucket_count - 1;
  PointRun spans[kMaxRuns];
  size_t span_count = 0;
  for (int32_t z = std::max(cell.z - 1, 0); z <= std::min(cell.z + 1, grid.dims[2] - 1); ++z) {
    for (int32_t y = std::max(cell.y - 1, 0); y <= std::min(cell.y + 1, grid.dims[1] - 1); ++y) {
      const uint32_t first = (RowHash(static_cast<uint32_t>(y), static_cast<uint32_t>(z)) +
                              static_cast<uint32_t>(x0)) &
                             last;
      const uint32_t end = first + static_cast<uint32_t>(x1 - x0);  // inclusive
      if (end <= last) {
        spans[span_count++] = {first, end};
      } else {
        spans[span_count++] = {first, last};
        spans[span_count++] = {0, end - grid.bucket_count};
      }
    }
  }
  std::sort(spans, spans + span_count,
            [](const PointRun& a, const PointRun& b) { return a.begin < b.begin; });
  for (size_t i = 0; i < span_count;) {
    uint32_t first = spans[i].begin;
    uint32_t end = spans[i].end;
    for (++i; i < span_count && spans[i].begin <= end + 1; ++i) end = std::max(end, spans[i].end);
    const PointRun run{start[first], start[end + 1]};
    if (run.begin < run.end) runs[count++] = run;
  }
  return count;
}

// Scans the runs a vector of sorted points at a time: `take(x, y, z, index)` gives the mask of
// the points to keep. With kWrite their indices are stored from out[0] while the position
// `found` stays within `room` (each store writes a whole vector); returns how many were kept.
template <bool kWrite, class D, class Take>
HWY_INLINE size_t ScanRuns(D d, const float* HWY_RESTRICT sx, const float* HWY_RESTRICT sy,
                           const float* HWY_RESTRICT sz, const PointRun* runs, size_t run_count,
                           const Take& take, int32_t* HWY_RESTRICT out, size_t room) {
  const hn::RebindToSigned<D> di;
  const size_t lanes = hn::Lanes(d);
  const auto iota = hn::Iota(di, 0);
  size_t found = 0;
  for (size_t r = 0; r < run_count; ++r) {
    const size_t end = runs[r].end;
    for (size_t j = runs[r].begin; j < end; j += lanes) {
      const auto index = hn::Add(iota, hn::Set(di, static_cast<int32_t>(j)));
      const auto keep =
          hn::And(take(hn::LoadU(d, sx + j), hn::LoadU(d, sy + j), hn::LoadU(d, sz + j), index),
                  hn::FirstN(di, end - j));
      if constexpr (kWrite) {
        if (found <= room) hn::StoreU(hn::Compress(index, keep), di, out + found);
      }
      found += hn::CountTrue(di, keep);
    }
  }
  return found;
}

// The neighbour test of sorted point `self`: within the radius, and not itself.
template <class D>
HWY_INLINE auto NeighborTest(D d, float px, float py, float pz, float radius_squared,
                             int32_t self) {
  const hn::RebindToSigned<D> di;
  return [=](auto x, auto y, auto z, auto index) HWY_ATTR {
    const auto dx = hn::Sub(x, hn::Set(d, px));
    const auto dy = hn::Sub(y, hn::Set(d, py));
    const auto dz = hn::Sub(z, hn::Set(d, pz));
    const auto distance_squared =
        hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
    return hn::AndNot(hn::Eq(index, hn::Set(di, self)),
                      hn::RebindMask(di, hn::Le(distance_squared, hn::Set(d, radius_squared))));
  };
}

// The points of `runs`.
inline size_t RunPoints(const PointRun* runs, size_t run_count) {
  size_t total = 0;
  for (size_t r = 0; r < run_count; ++r) total += runs[r].end - runs[r].begin;
  return total;
}

// The candidates of one cell (its 27 cells' points) copied side by side: kFields per-candidate
// floats (x, y, z first) and the sorted index. A query then scans whole vectors instead of nine
// runs that each end in a part-filled one (21 points per run for ~30 neighbours: 18 vectors
// become 12), with no end mask: the copy is followed by a vector of x = +inf, which no distance
// test passes. Up to kCapacity candidates are held at a time; a cell with more is scanned in
// chunks of kCapacity (a multiple of 16, so candidate slots keep their virtual lanes in
// neighbor_scan-inl.h). Neighbour lists copy x, y, z; the interaction kernels more fields.
template <size_t kFields>
struct CandidateFields {
  static constexpr size_t kCapacity = 1024;
  static constexpr size_t kSize = kCapacity + 2 * kPadFloats;
  alignas(kAlignBytes) float field[kFields][kSize];
  alignas(kAlignBytes) int32_t index[kSize];
  size_t count = 0;  // candidates in the chunk
  size_t first = 0;  // slot of the chunk's first candidate

  // Candidates [chunk_first, chunk_first + kCapacity) of the runs, copied whole vectors at a time
  // (the sources are padded arrays of `particles` elements, readable up to their padding; what a
  // vector copies past a run's end is overwritten by the next run or lies in the buffer's
  // padding).
  template <class D>
  void Fill(D d, const float* const (&sources)[kFields], size_t particles, const PointRun* runs,
            size_t run_count, size_t chunk_first) {
    const size_t readable = RoundUpToVector<float>(particles);
    const hn::RebindToSigned<D> di;
    const size_t lanes = hn::Lanes(d);
    const auto iota = hn::Iota(di, 0);
    size_t skip = chunk_first;
    size_t filled = 0;  // a local: the member would be reloaded after every store
    for (size_t r = 0; r < run_count && filled < kCapacity; ++r) {
      size_t begin = runs[r].begin;
      const size_t end = runs[r].end;
      const size_t skipped = std::min(skip, end - begin);
      begin += skipped;
      skip -= skipped;
      const size_t n = std::min(end - begin, kCapacity - filled);
      for (size_t k = 0; k < n; k += lanes) {
        if (begin + k + lanes <= readable) {
          for (size_t f = 0; f < kFields; ++f) {
            hn::StoreU(hn::LoadU(d, sources[f] + begin + k), d, field[f] + filled + k);
          }
        } else {
          // The arrays' last vector: whole-vector loads would pass their padding.
          for (size_t f = 0; f < kFields; ++f) {
            for (size_t e = k; e < n; ++e) field[f][filled + e] = sources[f][begin + e];
          }
        }
        hn::StoreU(hn::Add(iota, hn::Set(di, static_cast<int32_t>(begin + k))), di,
                   index + filled + k);
      }
      filled += n;
    }
    hn::StoreU(hn::Set(d, std::numeric_limits<float>::infinity()), d, field[0] + filled);
    count = filled;
    first = chunk_first;
  }
};

// The candidate slot of sorted point s (one of the runs' points): the points of the runs before
// the one that holds it, plus its place in that run.
inline size_t CandidateSlot(const PointRun* runs, size_t run_count, size_t s) {
  size_t slot = 0;
  for (size_t r = 0; r < run_count; ++r) {
    if (s < runs[r].end) return slot + (s - runs[r].begin);
    slot += runs[r].end - runs[r].begin;
  }
  return slot;
}

// The neighbours of the point at (px, py, pz) among the buffered candidates; with kWrite their
// indices are stored from out[0], whole vectors (the stage has room for a full buffer's).
template <bool kWrite, class D>
HWY_INLINE size_t ScanCandidates(D d, const CandidateFields<3>& buffer, float px, float py,
                                 float pz, float radius_squared, int32_t* HWY_RESTRICT out) {
  const hn::RebindToSigned<D> di;
  const size_t lanes = hn::Lanes(d);
  const auto x = hn::Set(d, px);
  const auto y = hn::Set(d, py);
  const auto z = hn::Set(d, pz);
  const auto limit = hn::Set(d, radius_squared);
  size_t found = 0;
  for (size_t j = 0; j < buffer.count; j += lanes) {
    const auto dx = hn::Sub(hn::Load(d, buffer.field[0] + j), x);
    const auto dy = hn::Sub(hn::Load(d, buffer.field[1] + j), y);
    const auto dz = hn::Sub(hn::Load(d, buffer.field[2] + j), z);
    const auto distance_squared =
        hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
    const auto take = hn::RebindMask(di, hn::Le(distance_squared, limit));
    if constexpr (kWrite) {
      hn::BlendedStore(hn::Compress(hn::Load(di, buffer.index + j), take),
                       hn::FirstN(di, hn::CountTrue(di, take)), di, out + found);
    }
    found += hn::CountTrue(di, take);
  }
  return found;
}

// The bucket holding sorted point s.
inline uint32_t BucketOf(const SortedGrid& sorted, size_t s) {
  const uint32_t* start = sorted.bucket_start;
  return static_cast<uint32_t>(std::upper_bound(start, start + sorted.grid.bucket_count + 1, s) -
                               start - 1);
}

// The cell of sorted point s, and the end of the group of points from s on that share it (all
// in one bucket). Dense grids decode the bucket once per group; hashed ones, whose buckets may
// mix cells, compare each point's cell.
struct CellGroup {
  CellCoord cell;
  size_t end;
};
inline CellGroup GroupAt(const SortedGrid& sorted, size_t s, size_t end, uint32_t* bucket) {
  const CellGrid& grid = sorted.grid;
  const uint32_t* HWY_RESTRICT start = sorted.bucket_start;
  while (start[*bucket + 1] <= s) ++*bucket;  // empty buckets, then the next
  const size_t bucket_end = std::min<size_t>(start[*bucket + 1], end);
  if (!grid.hashed) {
    const uint32_t nx = static_cast<uint32_t>(grid.dims[0]);
    const uint32_t ny = static_cast<uint32_t>(grid.dims[1]);
    const uint32_t row = *bucket / nx;
    return {{static_cast<int32_t>(*bucket - row * nx), static_cast<int32_t>(row % ny),
             static_cast<int32_t>(row / ny)},
            bucket_end};
  }
  const auto cell_of = [&](size_t t) {
    return CellCoord{CellAxisScalar(sorted.points.x()[t], grid.origin[0], grid.inverse_cell_size),
                     CellAxisScalar(sorted.points.y()[t], grid.origin[1], grid.inverse_cell_size),
                     CellAxisScalar(sorted.points.z()[t], grid.origin[2], grid.inverse_cell_size)};
  };
  const CellCoord cell = cell_of(s);
  size_t group_end = s + 1;
  while (group_end < bucket_end && cell_of(group_end) == cell) ++group_end;
  return {cell, group_end};
}

// Rows of buffered candidates are written to a staging area in L1 and leave it in whole aligned
// vectors (streamed past the caches for large lists): stored straight into the lists, every
// row's unaligned vectors split cache lines, and each new line of a list too large for the cache
// is first read from memory (a third of the list time at a million points).
struct RowStage {
  static constexpr size_t kFlushAt = 512;
  static constexpr size_t kSize = kFlushAt + CandidateFields<3>::kCapacity + 2 * kPadFloats;
  alignas(kAlignBytes) int32_t staged[kSize];
  int32_t* out = nullptr;
  size_t base = 0;  // the list position of staged[0], a whole number of vectors
  bool stream = false;

  int32_t* At(size_t total) { return staged + (total - base); }
  // Writes out the whole vectors staged before `total`; the partial one moves to the front.
  template <class D>
  void Flush(D d, size_t total) {
    const size_t lanes = hn::Lanes(d);
    const size_t whole = (total - base) / lanes * lanes;
    int32_t* HWY_RESTRICT to = out + base;
    for (size_t k = 0; k < whole; k += lanes) {
      if (stream) {
        hn::Stream(hn::Load(d, staged + k), d, to + k);
      } else {
        hn::Store(hn::Load(d, staged + k), d, to + k);
      }
    }
    if (whole != 0) hn::Store(hn::Load(d, staged + whole), d, staged);
    base += whole;
  }
  // Writes out everything staged, the partial vector whole (the lists have a vector of slack).
  template <class D>
  void FlushAll(D d, size_t total) {
    Flush(d, total);
    if (total > base) hn::StoreU(hn::Load(d, staged), d, out + base);
  }
  // After rows written straight to the lists up to `total`: stages their partial last vector.
  template <class D>
  void Restage(D d, size_t total) {
    base = total / hn::Lanes(d) * hn::Lanes(d);
    hn::Store(hn::LoadU(d, out + base), d, staged);
  }
};

// With kWrite, the walk stops after the first row that ends past `stop_after` entries (see
// ListNeighborRows).
template <bool kWrite>
HWY_INLINE size_t NeighborRows(const SortedGrid& sorted, float radius, size_t begin, size_t end,
                               int64_t* HWY_RESTRICT row_end, uint32_t* HWY_RESTRICT counts,
                               int32_t* HWY_RESTRICT out, size_t capacity, bool stream,
                               size_t stop_after) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const float* HWY_RESTRICT sx = sorted.points.x();
  const float* HWY_RESTRICT sy = sorted.points.y();
  const float* HWY_RESTRICT sz = sorted.points.z();
  const float radius_squared = radius * radius;
  PointRun runs[kMaxRuns];
  CandidateFields<3> buffer;
  const float* const sources[3] = {sx, sy, sz};
  RowStage stage;
  stage.out = out;
  stage.stream = stream;
  // Rows are written while the list fits its capacity; past it they are only counted.
  bool writing = kWrite;
  uint32_t bucket = BucketOf(sorted, begin);
  size_t total = 0;
  for (size_t s = begin; s < end;) {
    const CellGroup group = GroupAt(sorted, s, end, &bucket);
    const size_t run_count = CollectRuns(sorted, group.cell, runs);
    const bool buffered = RunPoints(runs, run_count) <= CandidateFields<3>::kCapacity;
    if (buffered) buffer.Fill(d, sources, sorted.points.count, runs, run_count, 0);
    size_t slot = CandidateSlot(runs, run_count, s);
    for (; s < group.end; ++s, ++slot) {
      writing = writing && total <= capacity;
      size_t found;
      if (buffered) {
        const float own_x = buffer.field[0][slot];
        buffer.field[0][slot] = std::numeric_limits<float>::infinity();
        found = writing ? ScanCandidates<true>(d, buffer, sx[s], sy[s], sz[s], radius_squared,
                                               stage.At(total))
                        : ScanCandidates<false>(d, buffer, sx[s], sy[s], sz[s], radius_squared,
                                                nullptr);
        buffer.field[0][slot] = own_x;
        if (writing && total + found - stage.base >= RowStage::kFlushAt) {
          // A row that overflows the capacity stays staged (and the list is only counted on).
          if (total + found <= capacity) stage.Flush(di, total + found);
        }
      } else {
        const auto test =
            NeighborTest(d, sx[s], sy[s], sz[s], radius_squared, static_cast<int32_t>(s));
        if (writing) {
          // Straight into the list: the row may be longer than the stage.
          stage.FlushAll(di, total);
          found =
              ScanRuns<true>(d, sx, sy, sz, runs, run_count, test, out + total, capacity - total);
          if (total + found <= capacity) stage.Restage(di, total + found);
        } else {
          found = ScanRuns<false>(d, sx, sy, sz, runs, run_count, test, nullptr, 0);
        }
      }
      total += found;
      if constexpr (kWrite) {
        row_end[s - begin] = static_cast<int64_t>(total);
        if (total > stop_after) {
          if (stream) hwy::FlushStream();
          return total;
        }
      } else {
        counts[s - begin] = static_cast<uint32_t>(found);
      }
    }
  }
  if (writing && total <= capacity) stage.FlushAll(di, total);
  if (stream) hwy::FlushStream();
  (void)row_end;
  (void)counts;
  return total;
}

// The rows of NeighborRows written into the block layout of
// swarm/kernels/particles/neighbor_block_layout.h: each row is found a chunk of candidates at a
// time (so any row fits the chunk's stage), then copied with the blocks' stride of 16 and ended
// with -1 up to its block's depth.
inline void ListNeighborBlockRowsImpl(const SortedGrid& sorted, float radius, size_t begin,
                                      size_t end, const int64_t* HWY_RESTRICT block_start,
                                      const uint32_t* HWY_RESTRICT block_depth,
                                      int32_t* HWY_RESTRICT entries) {
  const hn::ScalableTag<float> d;
  const float* HWY_RESTRICT sx = sorted.points.x();
  const float* HWY_RESTRICT sy = sorted.points.y();
  const float* HWY_RESTRICT sz = sorted.points.z();
  const float radius_squared = radius * radius;
  const float* const sources[3] = {sx, sy, sz};
  constexpr size_t kCapacity = CandidateFields<3>::kCapacity;
  PointRun runs[kMaxRuns];
  CandidateFields<3> buffer;
  alignas(kAlignBytes) int32_t row[kCapacity + 2 * kPadElements<int32_t>];
  uint32_t bucket = BucketOf(sorted, begin);
  for (size_t s = begin; s < end;) {
    const CellGroup group = GroupAt(sorted, s, end, &bucket);
    const size_t run_count = CollectRuns(sorted, group.cell, runs);
    const size_t total = RunPoints(runs, run_count);
    const bool one_chunk = total <= kCapacity;
    if (one_chunk) buffer.Fill(d, sources, sorted.points.count, runs, run_count, 0);
    size_t slot = CandidateSlot(runs, run_count, s);
    for (; s < group.end; ++s, ++slot) {
      int32_t* HWY_RESTRICT to = entries + block_start[s / kBlockLanes] + s % kBlockLanes;
      size_t listed = 0;
      for (size_t chunk = 0; chunk < total; chunk += kCapacity) {
        if (!one_chunk) buffer.Fill(d, sources, sorted.points.count, runs, run_count, chunk);
        // The point itself fails the distance test with x = +inf in its slot.
        const bool own_chunk = slot >= chunk && slot < chunk + buffer.count;
        float own_x = 0.0f;
        if (own_chunk) {
          own_x = buffer.field[0][slot - chunk];
          buffer.field[0][slot - chunk] = std::numeric_limits<float>::infinity();
        }
        const size_t found =
            ScanCandidates<true>(d, buffer, sx[s], sy[s], sz[s], radius_squared, row);
        if (own_chunk) buffer.field[0][slot - chunk] = own_x;
        for (size_t k = 0; k < found; ++k) to[(listed + k) * kBlockLanes] = row[k];
        listed += found;
      }
      const size_t depth = block_depth[s / kBlockLanes];
      for (; listed < depth; ++listed) to[listed * kBlockLanes] = -1;
    }
  }
}

inline size_t ListNeighborRowsImpl(const SortedGrid& sorted, float radius, size_t begin, size_t end,
                                   int64_t* row_end, int32_t* out, size_t capacity, bool stream,
                                   size_t stop_after) {
  return NeighborRows<true>(sorted, radius, begin, end, row_end, nullptr, out, capacity, stream,
                            stop_after);
}

inline void CountNeighborRowsImpl(const SortedGrid& sorted, float radius, size_t begin, size_t end,
                                  uint32_t* counts) {
  NeighborRows<false>(sorted, radius, begin, end, nullptr, counts, nullptr, 0, false, SIZE_MAX);
}

inline size_t CollectInSphereImpl(const ConstVec4View& sorted_points, const PointRun* runs,
                                  size_t run_count, const glm::vec3& center, float radius,
                                  int32_t* out) {
  const hn::ScalableTag<float> d;
  const auto test = NeighborTest(d, center.x, center.y, center.z, radius * radius, -1);
  return ScanRuns<true>(d, sorted_points.x(), sorted_points.y(), sorted_points.z(), runs, run_count,
                        test, out, SIZE_MAX);
}

inline size_t CollectInBoxImpl(const ConstVec4View& sorted_points, const PointRun* runs,
                               size_t run_count, const glm::vec3& min, const glm::vec3& max,
                               int32_t* out) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const auto inside = [&](auto x, auto y, auto z, auto /*index*/) HWY_ATTR {
    const auto in_x = hn::And(hn::Ge(x, hn::Set(d, min.x)), hn::Le(x, hn::Set(d, max.x)));
    const auto in_y = hn::And(hn::Ge(y, hn::Set(d, min.y)), hn::Le(y, hn::Set(d, max.y)));
    const auto in_z = hn::And(hn::Ge(z, hn::Set(d, min.z)), hn::Le(z, hn::Set(d, max.z)));
    return hn::RebindMask(di, hn::And(hn::And(in_x, in_y), in_z));
  };
  return ScanRuns<true>(d, sorted_points.x(), sorted_points.y(), sorted_points.z(), runs, run_count,
                        inside, out, SIZE_MAX);
}

// Rows of up to this many entries are sorted by rank: each entry's place is the number of entries
// below it, counted a vector at a time (the entries are distinct). That is branch-free and about
// ten times faster than a comparison sort on ~30 entries, whose branches a random row defeats;
// longer rows use std::sort.
inline constexpr size_t kMaxRankSortEntries = 256;

// Writes `to[rank] = entry` for the row's `n` entries in `mapped` (padded with INT32_MAX).
template <class D>
HWY_INLINE void RankSortRow(D di, const int32_t* HWY_RESTRICT mapped, size_t n,
                            int32_t* HWY_RESTRICT to) {
  const size_t lanes = hn::Lanes(di);
  for (size_t k = 0; k < n; ++k) {
    const auto value = hn::Set(di, mapped[k]);
    size_t rank = 0;
    for (size_t j = 0; j < n; j += lanes) {
      rank += hn::CountTrue(di, hn::Lt(hn::Load(di, mapped + j), value));
    }
    to[rank] = mapped[k];
  }
}

inline void RowsToInputOrderImpl(const int64_t* HWY_RESTRICT row_begin,
                                 const int64_t* HWY_RESTRICT row_end,
                                 const int32_t* HWY_RESTRICT row_indices,
                                 const uint32_t* HWY_RESTRICT order,
                                 const int64_t* HWY_RESTRICT offsets, size_t begin, size_t end,
                                 int32_t* HWY_RESTRICT out) {
  const hn::ScalableTag<int32_t> di;
  const int32_t* HWY_RESTRICT order_index = reinterpret_cast<const int32_t*>(order);
  // Two rows in flight: row s's entries are mapped (scalar stores) while row s - 1's, stored an
  // iteration earlier, are ranked (vector loads). Loading a vector right after the scalar stores
  // that fill it stalls until they retire (store forwarding fails), a third of the time.
  alignas(kAlignBytes) int32_t mapped[2][kMaxRankSortEntries + 2 * kPadFloats];
  size_t pending_n = 0;
  int32_t* pending_to = nullptr;
  // Rows go to input order, which is random in memory: each row's first line is requested for
  // writing a few rows ahead, and its offset (also at a random place) twice as far ahead, so the
  // misses overlap instead of stalling in turn.
  constexpr size_t kRowsAhead = 8;
  for (size_t s = begin; s < end; ++s) {
    if (s + 2 * kRowsAhead < end) {
      PrefetchToL2(reinterpret_cast<uintptr_t>(offsets + order[s + 2 * kRowsAhead]));
    }
    if (s + kRowsAhead < end) {
      PrefetchForWriteToL2(reinterpret_cast<uintptr_t>(out + offsets[order[s + kRowsAhead]]));
    }
    const int32_t* HWY_RESTRICT row = row_indices + row_begin[s];
    const size_t n = static_cast<size_t>(row_end[s] - row_begin[s]);
    int32_t* HWY_RESTRICT to = out + offsets[order[s]];
    int32_t* HWY_RESTRICT staged = mapped[s & 1];
    if (n > kMaxRankSortEntries) {
      for (size_t k = 0; k < n; ++k) to[k] = order_index[row[k]];
      std::sort(to, to + n);
    } else {
      for (size_t k = 0; k < n; ++k) staged[k] = order_index[row[k]];
      // Lanes past the row hold INT32_MAX, below which no entry ranks them: no masks needed.
      hn::StoreU(hn::Set(di, std::numeric_limits<int32_t>::max()), di, staged + n);
    }
    if (pending_to != nullptr) RankSortRow(di, mapped[(s - 1) & 1], pending_n, pending_to);
    pending_to = n > kMaxRankSortEntries ? nullptr : to;
    pending_n = n;
  }
  if (pending_to != nullptr) RankSortRow(di, mapped[(end - 1) & 1], pending_n, pending_to);
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_NEIGHBOR_GRID_INL_H_
