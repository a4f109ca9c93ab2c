// Dispatch for the neighbour search kernels, and the counting sort (plain C++: it is scattered
// increments and stores, which no SIMD target speeds up).
#include "swarm/kernels/particles/neighbor_search.h"

#include <algorithm>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/particles/neighbor_search-inl.h"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "kernels/particles/neighbor_search-inl.h"

#if HWY_ONCE
namespace swarm {

HWY_EXPORT(FindPointBoundsImpl);
HWY_EXPORT(ComputeCellBucketsImpl);
HWY_EXPORT(GatherFloatsImpl);
HWY_EXPORT(ListNeighborRowsImpl);
HWY_EXPORT(CountNeighborRowsImpl);
HWY_EXPORT(ListNeighborBlockRowsImpl);
HWY_EXPORT(CollectInSphereImpl);
HWY_EXPORT(CollectInBoxImpl);
HWY_EXPORT(RowsToInputOrderImpl);

namespace {

bool ValidGrid(const CellGrid& grid) {
  for (int32_t dim : grid.dims) {
    if (dim < 1 || dim > kMaxCellsPerAxis) return false;
  }
  if (grid.hashed)
    return grid.bucket_count > 0 && (grid.bucket_count & (grid.bucket_count - 1)) == 0;
  return uint64_t{static_cast<uint32_t>(grid.dims[0])} * static_cast<uint32_t>(grid.dims[1]) *
             static_cast<uint32_t>(grid.dims[2]) ==
         grid.bucket_count;
}

}  // namespace

PointBounds FindPointBounds(const ConstVec4View& points) {
  return HWY_DYNAMIC_DISPATCH(FindPointBoundsImpl)(points);
}

void ComputeCellBuckets(const ConstVec4View& points, const CellGrid& grid, uint32_t* buckets) {
  SWARM_ASSERT(ValidGrid(grid));
  HWY_DYNAMIC_DISPATCH(ComputeCellBucketsImpl)(points, grid, buckets);
}

void SortByBucket(const uint32_t* buckets, size_t count, uint32_t bucket_count,
                  uint32_t* bucket_start, uint32_t* order) {
  // Counts go to bucket_start[b + 1]; after the prefix sum bucket_start[b] is where bucket b
  // begins, and serves as its cursor, ending where bucket b + 1 begins; one shift restores it.
  std::fill(bucket_start, bucket_start + bucket_count + 1, 0u);
  for (size_t i = 0; i < count; ++i) ++bucket_start[buckets[i] + 1];
  for (uint32_t b = 0; b < bucket_count; ++b) bucket_start[b + 1] += bucket_start[b];
  for (size_t i = 0; i < count; ++i) order[bucket_start[buckets[i]]++] = static_cast<uint32_t>(i);
  for (uint32_t b = bucket_count; b > 0; --b) bucket_start[b] = bucket_start[b - 1];
  bucket_start[0] = 0;
}

void GatherFloats(const float* from, const uint32_t* order, float* to, size_t count) {
  HWY_DYNAMIC_DISPATCH(GatherFloatsImpl)(from, order, to, count);
}

size_t ListNeighborRows(const SortedGrid& sorted, float radius, size_t begin, size_t end,
                        int64_t* row_end, int32_t* out, size_t capacity, bool stream,
                        size_t stop_after) {
  SWARM_ASSERT(begin <= end && end <= sorted.points.count && ValidGrid(sorted.grid) &&
               IsVectorAligned(out));
  return HWY_DYNAMIC_DISPATCH(ListNeighborRowsImpl)(sorted, radius, begin, end, row_end, out,
                                                    capacity, stream, stop_after);
}

void CountNeighborRows(const SortedGrid& sorted, float radius, size_t begin, size_t end,
                       uint32_t* counts) {
  SWARM_ASSERT(begin <= end && end <= sorted.points.count && ValidGrid(sorted.grid));
  HWY_DYNAMIC_DISPATCH(CountNeighborRowsImpl)(sorted, radius, begin, end, counts);
}

void ListNeighborBlockRows(const SortedGrid& sorted, float radius, size_t begin, size_t end,
                           const int64_t* block_start, const uint32_t* block_depth,
                           int32_t* entries) {
  SWARM_ASSERT(begin <= end && end <= sorted.points.count && begin % kBlockLanes == 0 &&
               ValidGrid(sorted.grid));
  HWY_DYNAMIC_DISPATCH(ListNeighborBlockRowsImpl)
  (sorted, radius, begin, end, block_start, block_depth, entries);
}

void RowsToInputOrder(const int64_t* row_begin, const int64_t* row_end, const int32_t* row_indices,
                      const uint32_t* order, const int64_t* offsets, size_t begin, size_t end,
                      int32_t* out) {
  HWY_DYNAMIC_DISPATCH(RowsToInputOrderImpl)
  (row_begin, row_end, row_indices, order, offsets, begin, end, out);
}

size_t CollectInSphere(const ConstVec4View& sorted_points, const PointRun* runs, size_t run_count,
                       const glm::vec3& center, float radius, int32_t* out) {
  return HWY_DYNAMIC_DISPATCH(CollectInSphereImpl)(sorted_points, runs, run_count, center, radius,
                                                   out);
}

size_t CollectInBox(const ConstVec4View& sorted_points, const PointRun* runs, size_t run_count,
                    const glm::vec3& min, const glm::vec3& max, int32_t* out) {
  return HWY_DYNAMIC_DISPATCH(CollectInBoxImpl)(sorted_points, runs, run_count, min, max, out);
}

}  // namespace swarm
#endif  // HWY_ONCE
