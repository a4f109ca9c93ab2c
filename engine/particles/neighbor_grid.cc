#include "swarm/particles/neighbor_grid.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "swarm/core/text.h"

namespace swarm {
namespace {

// Fewer threads take part when each would get fewer points than this.
constexpr size_t kMinPointsPerThread = 4096;
// Tiles of the per-point passes (cells, gather); a multiple of every target's padding.
constexpr size_t kTilePoints = 16384;
// The most threads a list splits into (per-thread bookkeeping lives on the stack).
constexpr size_t kMaxListThreads = 256;
// A dense grid may have up to this many cells per point (plus a small floor); sparser point sets
// are hashed into a table of at least one bucket per point (a power of two), so the cell table
// never outgrows the points.
constexpr uint64_t kMaxDenseCellsPerPoint = 2;
constexpr uint64_t kMinDenseCells = 4096;

uint64_t HashedBuckets(size_t points) {
  return std::bit_ceil(std::max<uint64_t>(64, uint64_t{points}));
}
// The largest cell table `points` points can need: reserved at once, so points that spread or
// gather from step to step never make the table grow again.
uint64_t MaxBuckets(size_t points) {
  return std::max(
      {kMinDenseCells, kMaxDenseCellsPerPoint * uint64_t{points}, HashedBuckets(points)});
}
// A query whose cells exceed this many per point scans every point instead.
constexpr uint64_t kMaxQueryCellsPerPoint = 4;

Status CheckRadius(float radius, const char* what) {
  if (!(std::isfinite(radius) && radius > 0.0f)) {
    return InvalidArgument(std::string(what) + " must be finite and > 0, got " +
                           NumberText(radius));
  }
  if (radius > kMaxNeighborRadius) {
    return InvalidArgument(std::string(what) + " " + NumberText(radius) +
                           " is too large: at most " + NumberText(kMaxNeighborRadius) +
                           " (2^62), so that squared distances up to it stay finite in float32");
  }
  if (radius < kMinNeighborRadius) {
    return InvalidArgument(std::string(what) + " " + NumberText(radius) +
                           " is too small: at least " + NumberText(kMinNeighborRadius) +
                           " (2^-60), so that squared distances near it do not underflow in "
                           "float32");
  }
  return {};
}

size_t ThreadsFor(const ThreadPool& pool, size_t points) {
  return std::clamp<size_t>(points / kMinPointsPerThread, 1,
                            std::min(pool.num_threads(), kMaxListThreads));
}

// Runs task(begin, count) over [0, count) in tiles on the pool.
template <class Task>
void ForEachTile(ThreadPool& pool, size_t count, const Task& task) {
  const size_t tiles = (count + kTilePoints - 1) / kTilePoints;
  pool.ParallelFor(
      tiles,
      [&](size_t tile) {
        const size_t begin = tile * kTilePoints;
        task(begin, std::min(kTilePoints, count - begin));
      },
      std::max<size_t>(1, count / kMinPointsPerThread));
}

// Grows `array` to hold at least `count` elements, with an eighth to spare: points move a little
// between steps, and the grid's bounds, cell count and lists with them, which should not cost an
// allocation every time they creep up.
template <typename T>
Status ReserveWithHeadroom(PaddedArray<T>& array, size_t count) {
  if (array.capacity() >= count) return {};
  return array.Reserve(count + count / 8);
}

}  // namespace

Status NeighborGrid::ReplaceEntries(MemoryAccountant& accountant, PaddedArray<int32_t>& entries,
                                    size_t needed, size_t wanted) {
  // The old entries are not kept: they are freed first, so old and new never coexist.
  entries = PaddedArray<int32_t>();
  Result<PaddedArray<int32_t>> grown = PaddedArray<int32_t>::Create(accountant, wanted);
  if (!grown.ok()) {
    const Status& s = grown.status();
    return Status(s.code(), "neighbour lists need " + std::to_string(needed) + " entries (" +
                                FormatBytes(wanted * sizeof(int32_t)) + "): " + s.message());
  }
  entries = std::move(grown).value();
  return {};
}

NeighborLists::NeighborLists(MemoryAccountant& accountant, size_t max_entries)
    : max_entries_(max_entries) {
  row_begin_ = PaddedArray<int64_t>::Create(accountant, 0).value();
  row_end_ = PaddedArray<int64_t>::Create(accountant, 0).value();
  indices_ = PaddedArray<int32_t>::Create(accountant, 0).value();
}

size_t NeighborLists::allocated_bytes() const {
  return (row_begin_.capacity() + row_end_.capacity()) * sizeof(int64_t) +
         indices_.capacity() * sizeof(int32_t);
}

NeighborGrid::NeighborGrid(MemoryAccountant& accountant) : accountant_(&accountant) {
  buckets_ = PaddedArray<uint32_t>::Create(accountant, 0).value();
  order_ = PaddedArray<uint32_t>::Create(accountant, 0).value();
  bucket_start_ = PaddedArray<uint32_t>::Create(accountant, 0).value();
  runs_ = PaddedArray<uint32_t>::Create(accountant, 0).value();
  span_keys_ = PaddedArray<uint64_t>::Create(accountant, 0).value();
  sorted_ = Vec4Buffer::Create(accountant, 0).value();
}

size_t NeighborGrid::allocated_bytes() const {
  return (buckets_.capacity() + order_.capacity() + bucket_start_.capacity() + runs_.capacity()) *
             sizeof(uint32_t) +
         span_keys_.capacity() * sizeof(uint64_t) + sorted_.capacity() * 4 * sizeof(float);
}

ConstVec4View NeighborGrid::sorted_points() const {
  const ConstVec4View all = sorted_.view();
  return {all.data, size_, all.lane_stride};
}

SortedGrid NeighborGrid::Sorted() const {
  return {sorted_points(), bucket_start_.view().data, cells_};
}

Status NeighborGrid::ChooseCells(const PointBounds& bounds, float radius, CellGrid* cells) const {
  const double cell_size = CellSizeFor(radius);
  cells->inverse_cell_size = 1.0 / cell_size;
  uint64_t cell_count = 1;
  for (int axis = 0; axis < 3; ++axis) {
    cells->origin[axis] = bounds.min[axis];
    // The same arithmetic as a point's cell (kernels/particles/neighbor_search-inl.h), so the
    // highest point lands in the last cell.
    const double last = std::floor((static_cast<double>(bounds.max[axis]) - cells->origin[axis]) *
                                   cells->inverse_cell_size);
    if (!(last < kMaxCellsPerAxis)) {
      static const char* const kAxes[] = {"x", "y", "z"};
      return InvalidArgument("points span " + NumberText(bounds.min[axis]) + " .. " +
                             NumberText(bounds.max[axis]) + " along " + kAxes[axis] +
                             ", more than 2^30 cells of the radius " + NumberText(radius) +
                             "; a grid cannot index them (use a larger radius or split the set)");
    }
    cells->dims[axis] = static_cast<int32_t>(last) + 1;
    // Saturates at 2^62 (far above any dense limit): 3 axes of up to 2^30 cells may reach 2^90.
    cell_count = std::min(cell_count * static_cast<uint64_t>(cells->dims[axis]), uint64_t{1} << 62);
  }
  const uint64_t dense_limit =
      std::max<uint64_t>(kMinDenseCells, kMaxDenseCellsPerPoint * static_cast<uint64_t>(size_));
  if (cell_count <= dense_limit && cell_count < (uint64_t{1} << 31)) {
    cells->hashed = false;
    cells->bucket_count = static_cast<uint32_t>(cell_count);
  } else {
    cells->hashed = true;
    cells->bucket_count = static_cast<uint32_t>(HashedBuckets(size_));
  }
  return {};
}

Status NeighborGrid::Build(const ConstVec4View& points, float radius, ThreadPool& pool) {
  size_ = 0;
  radius_ = 0.0f;
  if (Status s = CheckRadius(radius, "neighbour radius"); !s.ok()) return s;
  // Sorted indices are int32 in the lists, and a whole vector past the last must stay indexable.
  constexpr size_t kMaxPoints = size_t{std::numeric_limits<int32_t>::max()} - 4 * kPadFloats;
  if (points.count > kMaxPoints) {
    return InvalidArgument("neighbour grid of " + std::to_string(points.count) +
                           " points: at most " + std::to_string(kMaxPoints));
  }
  const PointBounds bounds = FindPointBounds(points);
  if (bounds.first_non_finite < points.count) {
    const size_t i = bounds.first_non_finite;
    return InvalidArgument("point " + std::to_string(i) + " is not finite (" +
                           NumberText(points.x()[i]) + ", " + NumberText(points.y()[i]) + ", " +
                           NumberText(points.z()[i]) + "); the neighbour grid needs finite points");
  }
  CellGrid cells;
  size_ = points.count;  // ChooseCells sizes the table by it
  Status chosen = ChooseCells(bounds, radius, &cells);
  size_ = 0;
  if (!chosen.ok()) return chosen;
  const size_t count = points.count;
  if (Status s = ReserveWithHeadroom(buckets_, count); !s.ok()) return s;
  if (Status s = ReserveWithHeadroom(order_, count); !s.ok()) return s;
  if (Status s = ReserveWithHeadroom(bucket_start_, MaxBuckets(count) + 1); !s.ok()) {
    return s;
  }
  if (sorted_.size() < count + kPadFloats) {
    if (Status s = sorted_.Resize(count + count / 8 + kPadFloats); !s.ok()) return s;
  }
  uint32_t* buckets = buckets_.view().data;
  uint32_t* order = order_.view().data;
  ForEachTile(pool, count, [&](size_t begin, size_t n) {
    ComputeCellBuckets({points.data + begin, n, points.lane_stride}, cells, buckets + begin);
  });
  SortByBucket(buckets, count, cells.bucket_count, bucket_start_.view().data, order);
  const Vec4View sorted = sorted_.view();
  ForEachTile(pool, count, [&](size_t begin, size_t n) {
    for (size_t axis = 0; axis < 3; ++axis) {
      GatherFloats(points.Lane(axis), order + begin, sorted.Lane(axis) + begin, n);
    }
  });
  cells_ = cells;
  size_ = count;
  radius_ = radius;
  return {};
}

size_t NeighborGrid::AffordableEntries(const MemoryAccountant& accountant, size_t held) {
  const size_t budget = accountant.budget();
  if (budget == kNoBudget) return SIZE_MAX;
  const size_t in_use = accountant.Total().bytes_in_use;
  // The lists' current storage is freed before a larger one is made, so its bytes count as left.
  const size_t left = budget - std::min(budget, in_use) + held * sizeof(int32_t);
  return left / sizeof(int32_t);
}

Status NeighborGrid::CheckListRadius(float radius) const {
  if (Status s = CheckRadius(radius, "neighbour radius"); !s.ok()) return s;
  if (radius > radius_) {
    return InvalidArgument("neighbour radius " + NumberText(radius) +
                           " exceeds the radius the grid was built for (" + NumberText(radius_) +
                           ")");
  }
  return {};
}

Status NeighborGrid::ListNeighbors(float radius, ThreadPool& pool, NeighborLists& lists) const {
  if (Status s = CheckListRadius(radius); !s.ok()) return s;
  const size_t count = size_;
  if (Status s = ReserveWithHeadroom(lists.row_begin_, count); !s.ok()) return s;
  if (Status s = ReserveWithHeadroom(lists.row_end_, count); !s.ok()) return s;
  const size_t threads = ThreadsFor(pool, count);
  const SortedGrid sorted = Sorted();
  // The most entries the lists may come to hold: their own cap, and what the memory budget has
  // left. A thread stops counting once its rows pass it, so an impossible list (a million
  // coincident points) fails after work in proportion to the budget, not to the pairs.
  const size_t affordable = AffordableEntries(*accountant_, lists.indices_.capacity());
  const size_t stop_after = std::min(lists.max_entries_, affordable);
  // Each thread lists a contiguous range of rows into its own segment of the indices, sized in
  // proportion to its points; a segment too small is counted instead, and the list is redone in
  // storage grown to fit, segments sized by the counts.
  size_t needed[kMaxListThreads];
  size_t segment_start[kMaxListThreads + 1];
  const auto list_rows = [&](size_t thread) {
    const size_t begin = count * thread / threads;
    const size_t end = count * (thread + 1) / threads;
    const size_t capacity = segment_start[thread + 1] - segment_start[thread];
    int64_t* row_end = lists.row_end_.view().data + begin;
    needed[thread] = ListNeighborRows(sorted, radius, begin, end, row_end,
                                      lists.indices_.view().data + segment_start[thread], capacity,
                                      capacity * sizeof(int32_t) >= kStreamOutputBytes, stop_after);
  };
  const auto usable = [&] {
    const size_t capacity = lists.indices_.capacity();
    return capacity > kPadElements<int32_t> ? capacity - kPadElements<int32_t> : 0;
  };
  for (size_t thread = 0; thread <= threads; ++thread) {
    segment_start[thread] =
        usable() / kPadElements<int32_t> * thread / threads * kPadElements<int32_t>;
  }
  pool.ParallelFor(threads, list_rows);
  size_t total = 0;
  bool fits = true;
  bool stopped = false;
  for (size_t thread = 0; thread < threads; ++thread) {
    total += needed[thread];
    fits = fits && needed[thread] <= segment_start[thread + 1] - segment_start[thread];
    stopped = stopped || needed[thread] > stop_after;
  }
  if (!fits || stopped || total > lists.max_entries_) {
    // A stopped count is only a lower bound: the messages then say "more than".
    const std::string need =
        stopped ? "more than " + std::to_string(stop_after) : std::to_string(total);
    if (total > lists.max_entries_) {
      lists.rows_ = lists.entries_ = 0;
      return InvalidArgument("neighbour lists need " + need +
                             " entries, more than their capacity of " +
                             std::to_string(lists.max_entries_));
    }
    if (total > affordable) {
      lists.rows_ = lists.entries_ = 0;
      return Status(ErrorCode::kOverBudget,
                    "neighbour lists need " + need + " entries, more than the memory budget has " +
                        "left for them (" + std::to_string(affordable) + " entries, " +
                        FormatBytes(affordable * sizeof(int32_t)) + " of the budget of " +
                        FormatBytes(accountant_->budget()) + ")");
    }
    // Room for the counted rows, each segment rounded up to a vector, plus an eighth to spare.
    const size_t wanted = total + total / 8 + (threads + 1) * kPadElements<int32_t>;
    if (lists.indices_.capacity() < wanted) {
      lists.rows_ = lists.entries_ = 0;
      if (Status s = ReplaceEntries(*accountant_, lists.indices_, total, wanted); !s.ok()) return s;
    }
    const size_t spare = (usable() - total) / threads;
    segment_start[0] = 0;
    for (size_t thread = 0; thread < threads; ++thread) {
      segment_start[thread + 1] =
          RoundUpToVector<int32_t>(segment_start[thread] + needed[thread] + spare);
    }
    segment_start[threads] = std::min(segment_start[threads], usable());
    pool.ParallelFor(threads, list_rows);
  }
  // Row ends are relative to their thread's segment until here.
  pool.ParallelFor(threads, [&](size_t thread) {
    const size_t begin = count * thread / threads;
    const size_t end = count * (thread + 1) / threads;
    int64_t* row_begin = lists.row_begin_.view().data;
    int64_t* row_end = lists.row_end_.view().data;
    int64_t previous = static_cast<int64_t>(segment_start[thread]);
    for (size_t row = begin; row < end; ++row) {
      row_begin[row] = previous;
      row_end[row] += static_cast<int64_t>(segment_start[thread]);
      previous = row_end[row];
    }
  });
  lists.rows_ = count;
  lists.entries_ = total;
  return {};
}

Status NeighborGrid::CountNeighbors(float radius, ThreadPool& pool,
                                    std::span<uint32_t> counts) const {
  if (Status s = CheckListRadius(radius); !s.ok()) return s;
  if (counts.size() != size_) {
    return InvalidArgument("neighbour counts: " + std::to_string(counts.size()) +
                           " entries given, the grid has " + std::to_string(size_) + " points");
  }
  const size_t threads = ThreadsFor(pool, size_);
  const SortedGrid sorted = Sorted();
  pool.ParallelFor(threads, [&](size_t thread) {
    const size_t begin = size_ * thread / threads;
    const size_t end = size_ * (thread + 1) / threads;
    CountNeighborRows(sorted, radius, begin, end, counts.data() + begin);
  });
  return {};
}

Status NeighborGrid::CollectRunsInCells(const int32_t low[3], const int32_t high[3]) const {
  uint64_t cell_count = 1;
  for (int axis = 0; axis < 3; ++axis) {
    cell_count *= static_cast<uint64_t>(high[axis] - low[axis] + 1);
    cell_count = std::min(cell_count, uint64_t{1} << 62);
  }
  const uint32_t* start = bucket_start_.view().data;
  // Appends a run of sorted points, merged with the last when they touch.
  size_t run_count = 0;
  const auto append = [&](uint32_t begin, uint32_t end) {
    uint32_t* runs = runs_.view().data;
    if (begin >= end) return;
    if (run_count > 0 && runs[2 * run_count - 1] == begin) {
      runs[2 * run_count - 1] = end;
    } else {
      runs[2 * run_count] = begin;
      runs[2 * run_count + 1] = end;
      ++run_count;
    }
  };
  const uint64_t rows =
      static_cast<uint64_t>(high[1] - low[1] + 1) * static_cast<uint64_t>(high[2] - low[2] + 1);
  if (cell_count > kMaxQueryCellsPerPoint * size_ + 64) {
    if (Status s = runs_.Reserve(2); !s.ok()) return s;
    append(0, static_cast<uint32_t>(size_));
  } else if (!cells_.hashed) {
    if (Status s = runs_.Reserve(2 * rows); !s.ok()) return s;
    for (int32_t z = low[2]; z <= high[2]; ++z) {
      for (int32_t y = low[1]; y <= high[1]; ++y) {
        const uint32_t row = (static_cast<uint32_t>(z) * static_cast<uint32_t>(cells_.dims[1]) +
                              static_cast<uint32_t>(y)) *
                             static_cast<uint32_t>(cells_.dims[0]);
        append(start[row + static_cast<uint32_t>(low[0])],
               start[row + static_cast<uint32_t>(high[0]) + 1]);
      }
    }
  } else {
    // Each row's buckets (split where they wrap around the table), sorted and merged: distinct
    // rows may share buckets, whose points must be visited once. A span is a 64-bit key
    // (first bucket << 32 | last bucket), so sorting keys sorts spans by their first bucket.
    const uint32_t last = cells_.bucket_count - 1;
    const uint32_t width = static_cast<uint32_t>(high[0] - low[0]);
    if (width >= last) {
      if (Status s = runs_.Reserve(2); !s.ok()) return s;
      append(0, static_cast<uint32_t>(size_));
    } else {
      if (Status s = runs_.Reserve(4 * rows); !s.ok()) return s;
      if (Status s = span_keys_.Reserve(2 * rows); !s.ok()) return s;
      uint64_t* keys = span_keys_.view().data;
      size_t span_count = 0;
      for (int32_t z = low[2]; z <= high[2]; ++z) {
        for (int32_t y = low[1]; y <= high[1]; ++y) {
          const uint32_t first = (RowHash(static_cast<uint32_t>(y), static_cast<uint32_t>(z)) +
                                  static_cast<uint32_t>(low[0])) &
                                 last;
          if (first + width <= last) {
            keys[span_count++] = uint64_t{first} << 32 | (first + width);
          } else {
            keys[span_count++] = uint64_t{first} << 32 | last;
            keys[span_count++] = first + width - cells_.bucket_count;
          }
        }
      }
      std::sort(keys, keys + span_count);
      for (size_t i = 0; i < span_count;) {
        const uint32_t first = static_cast<uint32_t>(keys[i] >> 32);
        uint32_t end = static_cast<uint32_t>(keys[i]);
        for (++i; i < span_count && static_cast<uint32_t>(keys[i] >> 32) <= end + 1; ++i) {
          end = std::max(end, static_cast<uint32_t>(keys[i]));
        }
        append(start[first], start[end + 1]);
      }
    }
  }
  run_count_ = run_count;
  return {};
}

Status NeighborGrid::CollectRunsAround(const glm::vec3& low_corner, const glm::vec3& high_corner,
                                       double margin, bool* empty) const {
  int32_t low[3];
  int32_t high[3];
  *empty = size_ == 0;
  for (int axis = 0; axis < 3 && !*empty; ++axis) {
    const double scale = cells_.inverse_cell_size;
    const double first =
        std::floor((static_cast<double>(low_corner[axis]) - margin - cells_.origin[axis]) * scale);
    const double last =
        std::floor((static_cast<double>(high_corner[axis]) + margin - cells_.origin[axis]) * scale);
    if (last < 0.0 || first >= cells_.dims[axis]) *empty = true;
    low[axis] = static_cast<int32_t>(std::max(first, 0.0));
    high[axis] = static_cast<int32_t>(std::min(last, cells_.dims[axis] - 1.0));
  }
  if (*empty) return {};
  return CollectRunsInCells(low, high);
}

template <class Collect>
Status NeighborGrid::CollectInRuns(const Collect& collect, PaddedArray<int32_t>& out) const {
  const PointRun* runs = reinterpret_cast<const PointRun*>(runs_.view().data);
  size_t candidates = 0;
  for (size_t r = 0; r < run_count_; ++r) candidates += runs[r].end - runs[r].begin;
  if (Status s = out.Resize(candidates + kPadElements<int32_t>); !s.ok()) return s;
  int32_t* indices = out.view().data;
  const size_t found = collect(sorted_points(), runs, run_count_, indices);
  const uint32_t* order = order_.view().data;
  for (size_t k = 0; k < found; ++k) indices[k] = static_cast<int32_t>(order[indices[k]]);
  std::sort(indices, indices + found);
  return out.Resize(found);  // shrinking allocates nothing
}

Status NeighborGrid::QuerySphere(const glm::vec3& center, float radius,
                                 PaddedArray<int32_t>& out) const {
  if (Status s = CheckRadius(radius, "query radius"); !s.ok()) return s;
  if (!(std::isfinite(center.x) && std::isfinite(center.y) && std::isfinite(center.z))) {
    return InvalidArgument("query centre (" + NumberText(center.x) + ", " + NumberText(center.y) +
                           ", " + NumberText(center.z) + ") is not finite");
  }
  bool empty = false;
  if (Status s = CollectRunsAround(center, center, CellSizeFor(radius), &empty); !s.ok()) return s;
  if (empty) return out.Resize(0);
  return CollectInRuns(
      [&](const ConstVec4View& points, const PointRun* runs, size_t run_count, int32_t* indices) {
        return CollectInSphere(points, runs, run_count, center, radius, indices);
      },
      out);
}

Status NeighborGrid::QueryBox(const glm::vec3& min, const glm::vec3& max,
                              PaddedArray<int32_t>& out) const {
  for (int axis = 0; axis < 3; ++axis) {
    if (!(std::isfinite(min[axis]) && std::isfinite(max[axis]) && min[axis] <= max[axis])) {
      return InvalidArgument("query box (" + NumberText(min.x) + ", " + NumberText(min.y) + ", " +
                             NumberText(min.z) + ") .. (" + NumberText(max.x) + ", " +
                             NumberText(max.y) + ", " + NumberText(max.z) +
                             ") must be finite with min <= max");
    }
  }
  bool empty = false;
  if (Status s = CollectRunsAround(min, max, 0.0, &empty); !s.ok()) return s;
  if (empty) return out.Resize(0);
  return CollectInRuns(
      [&](const ConstVec4View& points, const PointRun* runs, size_t run_count, int32_t* indices) {
        return CollectInBox(points, runs, run_count, min, max, indices);
      },
      out);
}

void NeighborGrid::ReorderInto(const ConstVec4View& from, const Vec4View& to,
                               ThreadPool& pool) const {
  SWARM_ASSERT(from.count == size_ && to.count == size_);
  const uint32_t* order = order_.view().data;
  ForEachTile(pool, size_, [&](size_t begin, size_t n) {
    for (size_t lane = 0; lane < 4; ++lane) {
      GatherFloats(from.Lane(lane), order + begin, to.Lane(lane) + begin, n);
    }
  });
}

void NeighborGrid::ReorderInto(const ConstFloatView& from, const FloatView& to,
                               ThreadPool& pool) const {
  SWARM_ASSERT(from.count == size_ && to.count == size_);
  const uint32_t* order = order_.view().data;
  ForEachTile(pool, size_, [&](size_t begin, size_t n) {
    GatherFloats(from.data, order + begin, to.data + begin, n);
  });
}

Status NeighborRowsInInputOrder(const NeighborGrid& grid, const NeighborLists& lists,
                                ThreadPool& pool, std::span<int64_t> offsets,
                                std::span<int32_t> indices) {
  const size_t count = grid.size();
  if (lists.rows() != count) {
    return InvalidArgument("neighbour lists of " + std::to_string(lists.rows()) +
                           " rows for a grid of " + std::to_string(count) + " points");
  }
  if (offsets.size() != count + 1 || indices.size() != lists.entries()) {
    return InvalidArgument("neighbour rows in input order need " + std::to_string(count + 1) +
                           " offsets and " + std::to_string(lists.entries()) + " indices, got " +
                           std::to_string(offsets.size()) + " and " +
                           std::to_string(indices.size()));
  }
  const std::span<const uint32_t> order = grid.order();
  int64_t* offset = offsets.data();
  offset[0] = 0;
  for (size_t s = 0; s < count; ++s) offset[order[s] + 1] = lists.end(s) - lists.begin(s);
  for (size_t i = 0; i < count; ++i) offset[i + 1] += offset[i];
  const size_t threads = ThreadsFor(pool, count);
  pool.ParallelFor(threads, [&](size_t thread) {
    RowsToInputOrder(lists.row_begins(), lists.row_ends(), lists.indices(), order.data(), offset,
                     count * thread / threads, count * (thread + 1) / threads, indices.data());
  });
  return {};
}

Status NeighborRowsInInputOrder(const NeighborGrid& grid, const NeighborLists& lists,
                                ThreadPool& pool, PaddedArray<int64_t>& offsets,
                                PaddedArray<int32_t>& indices) {
  const size_t count = grid.size();
  if (lists.rows() != count) {
    return InvalidArgument("neighbour lists of " + std::to_string(lists.rows()) +
                           " rows for a grid of " + std::to_string(count) + " points");
  }
  // Whatever must grow is allocated before anything is written, so an error leaves the caller's
  // arrays as they were; arrays large enough are reused (steady state allocates nothing).
  const size_t entries = lists.entries();
  Result<PaddedArray<int64_t>> grown_offsets = PaddedArray<int64_t>();
  if (offsets.capacity() < count + 1) {
    grown_offsets = PaddedArray<int64_t>::Create(*grid.accountant(), count + 1, offsets.category());
    if (!grown_offsets.ok()) return grown_offsets.status();
  }
  Result<PaddedArray<int32_t>> grown_indices = PaddedArray<int32_t>();
  if (indices.capacity() < entries) {
    grown_indices = PaddedArray<int32_t>::Create(*grid.accountant(), entries, indices.category());
    if (!grown_indices.ok()) return grown_indices.status();
  }
  if (grown_offsets->capacity() > 0) offsets = std::move(grown_offsets).value();
  if (grown_indices->capacity() > 0) indices = std::move(grown_indices).value();
  // Within capacity, neither resize allocates or fails.
  SWARM_ASSERT(offsets.Resize(count + 1).ok() && indices.Resize(entries).ok());
  return NeighborRowsInInputOrder(grid, lists, pool, offsets.span(), indices.span());
}

}  // namespace swarm
