// The neighbour grid: every particle's neighbours within a radius, every step, deterministically.
//
//   NeighborGrid grid(accountant);
//   NeighborLists lists(accountant);
//   if (Status s = grid.Build(positions.view(), /*radius=*/0.1f, pool); !s.ok()) ...
//   if (Status s = grid.ListNeighbors(0.1f, pool, lists); !s.ok()) ...
//   for (int32_t t : lists.Row(s)) ...  // sorted point t is a neighbour of sorted point s
//
// Build sorts the points into cells of the radius (swarm/kernels/particles/neighbor_search.h): a
// dense uniform grid over their bounds when it has at most a few cells per point, otherwise a
// spatial hash of the cells, so points scattered over any distance still cost memory in proportion
// to their count. After Build the grid works in *sorted* indices: sorted point s is the input point
// order()[s], and sorted_points() holds the coordinates in that order. Interaction stages that
// reorder the particles' storage into this order (ReorderInto) make order() the identity and their
// neighbour loads nearly sequential.
//
// Determinism: the sort is stable (cell, then input index), the distance test is a fixed float
// sequence, rows are ascending; nothing depends on the thread count or the SIMD target.
// Memory: all of it is accounted (category particles) and grows only when a build or list needs
// more than the last; steady-state rebuilds allocate nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/particles/neighbor_search.h"

namespace swarm {

// The radii a grid accepts. The distance test compares float32 squared distances with radius^2,
// so radius^2 must be a normal float32 number with room to spare on both sides:
// - at most 2^62, so that radius^2 (and the sum of three squared coordinate differences of a pair
//   within it) stays far from overflow at 3.4e38; a larger radius turns the test into
//   inf <= inf, which lists every point, itself included;
// - at least 2^-60, so that radius^2 stays above float32's smallest normal number (2^-126) and
//   squared distances near it keep their precision; a smaller radius underflows to 0 <= 0, which
//   lists points several radii apart.
inline constexpr float kMaxNeighborRadius = 0x1p62f;
inline constexpr float kMinNeighborRadius = 0x1p-60f;

// Neighbour rows of the sorted points: row s is indices()[begin(s), end(s)), ascending sorted
// indices. Rows computed by different threads live in separate segments of one array, so rows are
// not contiguous across segments; NeighborRowsInInputOrder makes contiguous compressed rows.
class NeighborLists {
 public:
  // max_entries caps the total length of the rows; a list that would need more is an error
  // naming the count. Within the cap the storage grows as needed, within the memory budget.
  explicit NeighborLists(MemoryAccountant& accountant, size_t max_entries = SIZE_MAX);
  NeighborLists() = default;  // empty lists that must be assigned before use

  size_t rows() const { return rows_; }
  size_t entries() const { return entries_; }  // the sum of the rows' lengths
  int64_t begin(size_t row) const { return row_begin_[row]; }
  int64_t end(size_t row) const { return row_end_[row]; }
  std::span<const int32_t> Row(size_t row) const {
    return {indices_.view().data + row_begin_[row],
            static_cast<size_t>(row_end_[row] - row_begin_[row])};
  }
  const int64_t* row_begins() const { return row_begin_.view().data; }
  const int64_t* row_ends() const { return row_end_.view().data; }
  const int32_t* indices() const { return indices_.view().data; }
  size_t max_entries() const { return max_entries_; }
  // Bytes allocated for the rows.
  size_t allocated_bytes() const;

 private:
  friend class NeighborGrid;
  PaddedArray<int64_t> row_begin_;
  PaddedArray<int64_t> row_end_;
  PaddedArray<int32_t> indices_;  // capacity: what the rows may fill, plus one vector of slack
  size_t rows_ = 0;
  size_t entries_ = 0;
  size_t max_entries_ = SIZE_MAX;
};

class NeighborGrid {
 public:
  explicit NeighborGrid(MemoryAccountant& accountant);
  NeighborGrid() = default;  // an empty grid that must be assigned before use

  // Sorts lanes x, y, z of `points` into cells for neighbour queries of up to `radius`.
  // Errors (the grid is then empty): radius not finite, <= 0 or outside [kMinNeighborRadius,
  // kMaxNeighborRadius]; a point with a NaN or infinite
  // coordinate (the message names the first); more than 2^31 - 1 points; points spread over more
  // than 2^30 cells of the radius along an axis; the memory budget.
  Status Build(const ConstVec4View& points, float radius, ThreadPool& pool);

  size_t size() const { return size_; }
  float radius() const { return radius_; }
  bool hashed() const { return cells_.hashed; }
  const CellGrid& cells() const { return cells_; }
  // order()[s] = the input index of sorted point s.
  std::span<const uint32_t> order() const { return {order_.view().data, size_}; }
  // Lanes x, y, z of the points in sorted order (lane w is zero).
  ConstVec4View sorted_points() const;
  // Buckets of the cell table and their first sorted points (bucket_count + 1 entries).
  std::span<const uint32_t> bucket_start() const {
    return {bucket_start_.view().data, cells_.bucket_count + size_t{1}};
  }

  // Every sorted point's neighbours within `radius` (<= the built radius; a smaller one reuses
  // the grid). Errors: radius invalid or above the built one; rows that would exceed the lists'
  // max_entries or the memory budget (the message names the entries needed). Counting stops as
  // soon as the rows pass what the budget can hold, so refusing costs work in proportion to the
  // budget, not to the number of pairs.
  Status ListNeighbors(float radius, ThreadPool& pool, NeighborLists& lists) const;
  // counts[s] = the length of sorted point s's row; counts has size() entries.
  Status CountNeighbors(float radius, ThreadPool& pool, std::span<uint32_t> counts) const;

  // Input indices of the points within `radius` of `center` (any radius > 0) or inside the box
  // [min, max] (bounds included), ascending, into `out` (resized to the count). Not safe to call
  // on one grid from two threads at once (they share the grid's scratch).
  Status QuerySphere(const glm::vec3& center, float radius, PaddedArray<int32_t>& out) const;
  Status QueryBox(const glm::vec3& min, const glm::vec3& max, PaddedArray<int32_t>& out) const;

  // to.Lane(a)[s] = from.Lane(a)[order()[s]] for every lane: a particle attribute moved into
  // sorted order (from and to must not overlap; both have size() elements).
  void ReorderInto(const ConstVec4View& from, const Vec4View& to, ThreadPool& pool) const;
  void ReorderInto(const ConstFloatView& from, const FloatView& to, ThreadPool& pool) const;

  // Bytes allocated by the grid (cell table, order, sorted coordinates).
  size_t allocated_bytes() const;
  MemoryAccountant* accountant() const { return accountant_; }

 private:
  friend class NeighborBlocks;  // lists into its own layout from the sorted points
  // Replaces `entries` (freed first) by `wanted` entries for lists that need `needed`; the error
  // names both and the budget's verdict.
  // How many list entries the accountant's budget can still pay for, counting the `held` entries
  // the lists already have (SIZE_MAX without a budget).
  static size_t AffordableEntries(const MemoryAccountant& accountant, size_t held);
  static Status ReplaceEntries(MemoryAccountant& accountant, PaddedArray<int32_t>& entries,
                               size_t needed, size_t wanted);
  Status ChooseCells(const PointBounds& bounds, float radius, CellGrid* cells) const;
  // A radius for lists and counts: finite, > 0 and at most the built one.
  Status CheckListRadius(float radius) const;
  SortedGrid Sorted() const;
  // The sorted points' runs overlapping the cells [low, high] (inclusive), into runs_ and
  // run_count_ (every point when that is fewer than the cells).
  Status CollectRunsInCells(const int32_t low[3], const int32_t high[3]) const;
  // The runs of the cells covering the box [low_corner - margin, high_corner + margin]; *empty
  // when it misses the grid.
  Status CollectRunsAround(const glm::vec3& low_corner, const glm::vec3& high_corner, double margin,
                           bool* empty) const;
  // collect(points, runs, run_count, out) over the collected runs, mapped to input indices and
  // sorted, into out.
  template <class Collect>
  Status CollectInRuns(const Collect& collect, PaddedArray<int32_t>& out) const;

  MemoryAccountant* accountant_ = nullptr;
  PaddedArray<uint32_t> buckets_;  // per input point
  PaddedArray<uint32_t> order_;
  PaddedArray<uint32_t> bucket_start_;
  Vec4Buffer sorted_;  // capacity >= size + kPadFloats: queries load whole vectors
  // Scratch of QuerySphere and QueryBox (so one grid answers one such query at a time).
  mutable PaddedArray<uint32_t> runs_;       // (begin, end) pairs of sorted points
  mutable PaddedArray<uint64_t> span_keys_;  // hashed grids: bucket spans to merge
  mutable size_t run_count_ = 0;
  CellGrid cells_;
  size_t size_ = 0;
  float radius_ = 0.0f;
};

// Contiguous compressed rows in input order, as the C API and Python return them: row i (input
// index) is indices[offsets[i] .. offsets[i + 1]), every input index j != i within the lists'
// radius of point i, ascending. offsets has grid.size() + 1 entries, indices lists.entries().
Status NeighborRowsInInputOrder(const NeighborGrid& grid, const NeighborLists& lists,
                                ThreadPool& pool, std::span<int64_t> offsets,
                                std::span<int32_t> indices);
// The same into padded arrays, resized (grown within the budget; on error both are unchanged).
Status NeighborRowsInInputOrder(const NeighborGrid& grid, const NeighborLists& lists,
                                ThreadPool& pool, PaddedArray<int64_t>& offsets,
                                PaddedArray<int32_t>& indices);

}  // namespace swarm
