// Neighbour search kernels: the pieces of a uniform grid (or, for worlds too sparse for one, a
// spatial hash of grid cells) that finds every pair of points closer than a radius.
//
// The engine's NeighborGrid (swarm/particles/neighbor_grid.h) drives them:
//   1. FindPointBounds: the points' bounding box, or the first non-finite point;
//   2. ComputeCellBuckets: each point's cell, as a bucket index;
//   3. a stable counting sort of the points by bucket (SortByBucket), and GatherFloats of the
//      coordinates into bucket order, so each bucket's points are contiguous;
//   4. ListNeighborRows / CountNeighborRows: for each sorted point, every other sorted point
//      within the radius, in ascending sorted index.
//
// Cells are cubes of edge `cell_size` >= radius, so a point's neighbours lie in the 3 x 3 x 3
// cells around its own. A point's cell is floor((p - origin) / cell_size), computed in double
// precision so that it is exact enough for any float coordinate (see CellGrid). Dense grids number
// cells x-fastest, ((z * ny) + y) * nx + x, so the three cells of a row along x are consecutive
// buckets and a query reads 9 contiguous runs of sorted points. Hashed grids map a cell to
// (RowHash(y, z) + x) mod bucket_count, which keeps that property (a row's three buckets are
// consecutive, modulo wrap-around) while the table stays ~2 buckets per point however far apart
// the points are; distinct cells may share a bucket, which costs only rejected candidates.
//
// Determinism: a point's cell is a fixed sequence of correctly rounded double operations; the
// distance test is the float sequence dx*dx + dy*dy + dz*dz <= radius*radius (no FMA); lists come
// out in ascending sorted index. None of it depends on the vector width or the thread count.
// Reference (brute force in double precision): swarm/kernels/particles/neighbor_search_reference.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>

#include "swarm/kernels/base/views.h"

namespace swarm {

struct PointBounds {
  glm::vec3 min{0.0f};
  glm::vec3 max{0.0f};
  // Index of the first point whose x, y or z is NaN or infinite; the point count if none. The box
  // is meaningful only when every point is finite.
  size_t first_non_finite = 0;
};
// Bounds of lanes x, y, z of `points` (an empty view gives a zero box).
PointBounds FindPointBounds(const ConstVec4View& points);

// Where the cells lie. A point p is in cell c = floor((double(p) - origin) * inverse_cell_size)
// per axis, with 0 <= c < dims. Computing in double keeps the cell exact to within 2^-20 of a cell
// for up to 2^30 cells per axis, so with cell_size a little above the radius (CellSizeFor), two
// points that pass the float distance test are never more than one cell apart.
struct CellGrid {
  double origin[3] = {0.0, 0.0, 0.0};
  double inverse_cell_size = 1.0;
  int32_t dims[3] = {1, 1, 1};
  // Dense: dims[0] * dims[1] * dims[2] buckets, one per cell. Hashed: a power of two.
  uint32_t bucket_count = 1;
  bool hashed = false;
};
// The largest number of cells per axis a CellGrid may have.
inline constexpr int32_t kMaxCellsPerAxis = int32_t{1} << 30;
// The cell edge used for a radius: slightly larger, so rounding in the float distance test (a few
// ulps of the radius) can never admit a pair two cells apart.
inline double CellSizeFor(float radius) { return static_cast<double>(radius) * (1.0 + 0x1p-16); }

// The hash of a row of cells (y, z) in a hashed grid; the row's cell x goes to bucket
// (RowHash(y, z) + x) & (bucket_count - 1).
inline uint32_t RowHash(uint32_t y, uint32_t z) { return y * 0x9E3779B1u ^ z * 0x85EBCA77u; }

// buckets[i] = the bucket of point i. Precondition: every point is finite and inside the grid.
void ComputeCellBuckets(const ConstVec4View& points, const CellGrid& grid, uint32_t* buckets);

// A stable counting sort of point indices by bucket, on one thread:
//   bucket_start[b] = the number of points in buckets < b (bucket_start has bucket_count + 1
//   entries), order[s] = the index of the point with sorted index s; points of one bucket keep
//   their index order. `buckets` has `count` entries.
void SortByBucket(const uint32_t* buckets, size_t count, uint32_t bucket_count,
                  uint32_t* bucket_start, uint32_t* order);

// to[s] = from[order[s]] for s < count: coordinates, or any per-point attribute, moved into
// sorted order.
void GatherFloats(const float* from, const uint32_t* order, float* to, size_t count);

// Points sorted by bucket, as the queries read them: lanes x, y, z of `points` hold at least
// count + kPadFloats floats each (a query loads whole vectors starting at any point).
struct SortedGrid {
  ConstVec4View points;          // in sorted order, count = number of points
  const uint32_t* bucket_start;  // bucket_count + 1 entries
  CellGrid grid;
};

// Neighbour lists of sorted points [begin, end): for each sorted point s, every other sorted
// point t with |p_s - p_t|^2 <= radius^2 (float arithmetic as above) in ascending order of t.
// radius <= the radius the grid was built for. Row s is written to out[row_end[s - 1 - begin] ..
// row_end[s - begin]) (the first row starts at 0). `out` is kAlignBytes-aligned and has
// `capacity + kPadElements<int32_t>` entries: whole vectors are stored. When the rows need more
// than `capacity` entries, the rows that do not fit are counted, not written (row_end still gets
// their ends). With `stream` the rows bypass the caches (for lists far larger than L2). Returns
// the entries the rows need; once a row ends past `stop_after` entries the walk stops there and
// returns that row's end (more than stop_after, and row_end is incomplete): a caller that cannot
// hold more than stop_after entries learns so without counting every pair.
size_t ListNeighborRows(const SortedGrid& sorted, float radius, size_t begin, size_t end,
                        int64_t* row_end, int32_t* out, size_t capacity, bool stream,
                        size_t stop_after = SIZE_MAX);

// The same rows' lengths only: counts[s - begin] = number of neighbours of sorted point s.
void CountNeighborRows(const SortedGrid& sorted, float radius, size_t begin, size_t end,
                       uint32_t* counts);

// The same rows in the block layout of swarm/kernels/particles/neighbor_block_layout.h, for sorted
// points [begin, end) (begin a multiple of kBlockLanes): the k-th entry of row s at
// entries[block_start[s / 16] + 16 k + s % 16], then -1 up to block_depth[s / 16], which must be
// at least the row's length (CountNeighborRows).
void ListNeighborBlockRows(const SortedGrid& sorted, float radius, size_t begin, size_t end,
                           const int64_t* block_start, const uint32_t* block_depth,
                           int32_t* entries);

// Rows [begin, end) of sorted points moved to input order: row s (sorted index) holds sorted
// indices row_indices[row_begin[s] .. row_end[s]); its entries become order[t] and are written,
// ascending, to out[offsets[order[s]] ..). Rows are disjoint in `out`, so ranges of rows may be
// converted by different threads.
void RowsToInputOrder(const int64_t* row_begin, const int64_t* row_end, const int32_t* row_indices,
                      const uint32_t* order, const int64_t* offsets, size_t begin, size_t end,
                      int32_t* out);

// Sorted points [begin, end).
struct PointRun {
  uint32_t begin, end;
};
// The sorted indices of the points of `runs` (ascending, disjoint) inside the sphere
// |p - center|^2 <= radius^2 (float arithmetic as above) or the box min <= p <= max, ascending.
// `out` must have room for the runs' points plus one vector. Returns the count.
size_t CollectInSphere(const ConstVec4View& sorted_points, const PointRun* runs, size_t run_count,
                       const glm::vec3& center, float radius, int32_t* out);
size_t CollectInBox(const ConstVec4View& sorted_points, const PointRun* runs, size_t run_count,
                    const glm::vec3& min, const glm::vec3& max, int32_t* out);

}  // namespace swarm
