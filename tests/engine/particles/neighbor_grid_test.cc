// Tests for swarm/particles/neighbor_grid.h and neighbor_blocks.h: neighbour lists (and blocks)
// equal a brute-force double-precision reference
// (swarm/kernels/particles/neighbor_search_reference.h) on uniform, clustered, lattice, far-apart
// and tiny point sets, under every SIMD target and 1-3 threads. Pairs whose distance is within a
// relative 2^-20 of the radius may go either way (float32 distance test against a double reference)
// and are the only differences allowed; the lattice sets place pairs at exactly the radius in
// binary-exact coordinates, where float and double agree, so there none are allowed at all.
#include "swarm/particles/neighbor_grid.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <glm/vec3.hpp>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/state_hash.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/particles/neighbor_search_reference.h"
#include "swarm/particles/neighbor_blocks.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"

namespace swarm {
namespace {

struct PointSet {
  std::string name;
  std::vector<glm::vec3> points;
  float radius;
  bool exact;  // no pair within float rounding of the radius
};

PointSet Uniform(size_t count, float radius, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  PointSet set{"uniform", {}, radius, false};
  for (size_t i = 0; i < count; ++i)
    set.points.push_back({unit(random), unit(random), unit(random)});
  return set;
}

// Dense Gaussian clusters in a sparse background, some points duplicated exactly.
PointSet Clustered() {
  std::mt19937 random(7);
  std::normal_distribution<float> spread(0.0f, 0.05f);
  std::uniform_real_distribution<float> wide(-3.0f, 3.0f);
  PointSet set{"clustered", {}, 0.04f, false};
  const glm::vec3 centers[] = {{0.0f, 0.0f, 0.0f}, {1.0f, -2.0f, 0.5f}, {-2.5f, 2.0f, 2.9f}};
  for (const glm::vec3& c : centers) {
    for (int i = 0; i < 700; ++i)
      set.points.push_back(c + glm::vec3(spread(random), spread(random), spread(random)));
  }
  for (int i = 0; i < 400; ++i) set.points.push_back({wide(random), wide(random), wide(random)});
  for (int i = 0; i < 50; ++i) set.points.push_back(set.points[static_cast<size_t>(i) * 37]);
  return set;
}

// A lattice whose spacing is the radius, so every point sits on cell edges and its axis
// neighbours are exactly one radius away; shuffled so input order is not cell order.
PointSet Lattice() {
  PointSet set{"lattice on cell edges", {}, 0.5f, true};
  for (int z = -4; z < 5; ++z) {
    for (int y = 0; y < 11; ++y) {
      for (int x = -7; x < 6; ++x) set.points.push_back(glm::vec3(x, y, z) * 0.5f);
    }
  }
  std::shuffle(set.points.begin(), set.points.end(), std::mt19937(3));
  return set;
}

// Two clouds a million radii apart: a dense grid over their bounds would need 10^18 cells, so
// the grid hashes its cells.
PointSet FarApart() {
  PointSet set = Uniform(1500, 0.06f, 11);
  set.name = "far apart";
  for (size_t i = 0; i < set.points.size(); i += 2)
    set.points[i] += glm::vec3(6.0e4f, -6.0e4f, 3.0e4f);
  return set;
}

// Pairs 0.998 radii apart along an axis, the first point just below a cell boundary: any cell
// narrower than the pair would put them two cells apart (a missed pair). Cells follow the grid's
// own choice: origin at the lowest point (0, 0, 0 here), edge CellSizeFor(radius).
PointSet AcrossCellBoundaries() {
  PointSet set{"pairs across cell boundaries", {{0.0f, 0.0f, 0.0f}}, 0.1f, false};
  const double cell = CellSizeFor(set.radius);
  std::mt19937 random(21);
  std::uniform_int_distribution<int> boundary(1, 9000);
  std::uniform_real_distribution<float> elsewhere(0.0f, 900.0f);
  for (int pair = 0; pair < 600; ++pair) {
    glm::vec3 p(elsewhere(random), elsewhere(random), elsewhere(random));
    const int axis = pair % 3;
    const double edge = boundary(random) * cell;
    p[axis] = static_cast<float>(edge);
    if (static_cast<double>(p[axis]) >= edge) p[axis] = std::nextafter(p[axis], 0.0f);
    glm::vec3 q = p;
    q[axis] += 0.998f * set.radius;
    set.points.push_back(p);
    set.points.push_back(q);
  }
  return set;
}

std::vector<PointSet> PointSets() {
  std::vector<PointSet> sets;
  sets.push_back(Uniform(2500, 0.135f, 1));  // ~30 neighbours each
  sets.push_back(Clustered());
  sets.push_back(Lattice());
  sets.push_back(FarApart());
  sets.push_back(AcrossCellBoundaries());
  sets.push_back({"one point", {{1.0f, 2.0f, 3.0f}}, 1.0f, true});
  sets.push_back({"two points", {{0.0f, 0.0f, 0.0f}, {0.0f, 0.25f, 0.0f}}, 0.25f, true});
  sets.push_back(
      {"all equal", std::vector<glm::vec3>(40, glm::vec3(-1.5f, 0.5f, 8.0f)), 0.1f, true});
  sets.push_back({"empty", {}, 1.0f, true});
  return sets;
}

Vec4Buffer ToBuffer(MemoryAccountant& memory, const std::vector<glm::vec3>& points) {
  Vec4Buffer buffer = Vec4Buffer::Create(memory, points.size()).value();
  for (size_t i = 0; i < points.size(); ++i)
    buffer.Set(i, glm::vec4(points[i], static_cast<float>(i)));
  return buffer;
}

// Row i of `got` against the reference's row i: the same indices, ascending, except pairs within
// float rounding of the radius (none when the set is exact).
void RequireRowsMatch(const PointSet& set, double radius, const std::vector<int64_t>& offsets,
                      const int32_t* indices, const reference::NeighborRows& expected) {
  REQUIRE(offsets.size() == set.points.size() + 1);
  REQUIRE(offsets[0] == 0);
  size_t borderline = 0;
  for (size_t i = 0; i < set.points.size(); ++i) {
    const std::vector<int32_t> row(indices + offsets[i], indices + offsets[i + 1]);
    REQUIRE(std::is_sorted(row.begin(), row.end()));
    REQUIRE(std::adjacent_find(row.begin(), row.end()) == row.end());
    const std::vector<int32_t> want(expected.indices.begin() + expected.offsets[i],
                                    expected.indices.begin() + expected.offsets[i + 1]);
    std::vector<int32_t> differ;
    std::set_symmetric_difference(row.begin(), row.end(), want.begin(), want.end(),
                                  std::back_inserter(differ));
    for (int32_t j : differ) {
      INFO("point " << i << " and " << j << " differ from the reference");
      REQUIRE_FALSE(set.exact);
      REQUIRE(reference::NearRadius(set.points[i], set.points[static_cast<size_t>(j)], radius));
      ++borderline;
    }
  }
  // Borderline pairs are rare: a relative 2^-20 shell holds a few per million pairs.
  REQUIRE(borderline <= 2);
}

// For every set, SIMD target and 1-3 threads: check(set, grid, pool, memory, expected,
// expected_half) on a grid built for the set's radius, with the brute-force rows within that
// radius and within half of it.
template <class Check>
void ForEachGridCase(const std::vector<PointSet>& sets, const Check& check) {
  for (const PointSet& set : sets) {
    const reference::NeighborRows expected = reference::NeighborsWithin(set.points, set.radius);
    const reference::NeighborRows expected_half =
        reference::NeighborsWithin(set.points, set.radius * 0.5);
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      for (size_t threads = 1; threads <= 3; ++threads) {
        INFO(set.name << ", target " << target.name << ", " << threads << " threads");
        MemoryAccountant memory;
        ThreadPool pool(threads);
        const Vec4Buffer points = ToBuffer(memory, set.points);
        NeighborGrid grid(memory);
        REQUIRE(grid.Build(points.view(), set.radius, pool).ok());
        check(set, grid, pool, memory, expected, expected_half);
      }
    });
  }
}

TEST_CASE("neighbour lists equal the brute-force reference on every target and thread count") {
  ForEachGridCase(PointSets(), [](const PointSet& set, const NeighborGrid& grid, ThreadPool& pool,
                                  MemoryAccountant& memory, const reference::NeighborRows& expected,
                                  const reference::NeighborRows& expected_half) {
    // Sets spread thinly over their bounds hash their cells; compact ones get a dense grid.
    if (set.name == "far apart" || set.name == "clustered") REQUIRE(grid.hashed());
    if (set.name == "uniform" || set.name == "lattice on cell edges") REQUIRE(!grid.hashed());
    NeighborLists lists(memory);
    PaddedArray<int64_t> offsets = PaddedArray<int64_t>::Create(memory, 0).value();
    PaddedArray<int32_t> indices = PaddedArray<int32_t>::Create(memory, 0).value();
    // The full radius, then half of it on the same grid.
    for (const auto* want : {&expected, &expected_half}) {
      const float radius = want == &expected ? set.radius : set.radius * 0.5f;
      REQUIRE(grid.ListNeighbors(radius, pool, lists).ok());
      REQUIRE(lists.rows() == set.points.size());
      REQUIRE(NeighborRowsInInputOrder(grid, lists, pool, offsets, indices).ok());
      const std::vector<int64_t> offset_list(offsets.span().begin(), offsets.span().end());
      RequireRowsMatch(set, radius, offset_list, indices.view().data, *want);
      REQUIRE(static_cast<size_t>(offset_list.back()) == lists.entries());
    }
    // Sorted rows are ascending sorted indices, and the counts agree with them.
    std::vector<uint32_t> counts(grid.size());
    REQUIRE(grid.CountNeighbors(set.radius * 0.5f, pool, counts).ok());
    for (size_t s = 0; s < grid.size(); ++s) {
      const std::span<const int32_t> row = lists.Row(s);
      REQUIRE(std::is_sorted(row.begin(), row.end()));
      REQUIRE(counts[s] == row.size());
    }
  });
}

// The rows of a NeighborBlocks in input order, read back from its block layout, checking the
// layout on the way: each block as deep as its longest row, rows ended by -1 only.
void ReadBlocks(const NeighborGrid& grid, const NeighborBlocks& blocks,
                std::vector<int64_t>& offsets, std::vector<int32_t>& indices) {
  const NeighborBlocksView view = blocks.view();
  const size_t count = grid.size();
  REQUIRE(view.particles == count);
  std::vector<std::vector<int32_t>> rows(count);
  for (size_t b = 0; b < view.blocks(); ++b) {
    REQUIRE(view.block_start[b + 1] - view.block_start[b] ==
            int64_t{view.block_depth[b]} * int64_t{kBlockLanes});
    size_t longest = 0;
    for (size_t lane = 0; lane < kBlockLanes; ++lane) {
      const size_t s = b * kBlockLanes + lane;
      const int32_t* column = view.entries + view.block_start[b] + lane;
      size_t length = 0;
      while (length < view.block_depth[b] && column[length * kBlockLanes] >= 0) ++length;
      for (size_t k = length; k < view.block_depth[b]; ++k) REQUIRE(column[k * kBlockLanes] == -1);
      if (s >= count) {
        REQUIRE(length == 0);
        continue;
      }
      longest = std::max(longest, length);
      for (size_t k = 0; k < length; ++k) {
        const int32_t t = column[k * kBlockLanes];
        REQUIRE(static_cast<size_t>(t) < count);
        if (k > 0) REQUIRE(t > column[(k - 1) * kBlockLanes]);  // ascending sorted indices
        rows[grid.order()[s]].push_back(static_cast<int32_t>(grid.order()[t]));
      }
    }
    REQUIRE(longest == view.block_depth[b]);
  }
  offsets.assign(1, 0);
  indices.clear();
  size_t listed = 0;
  for (std::vector<int32_t>& row : rows) {
    std::sort(row.begin(), row.end());
    indices.insert(indices.end(), row.begin(), row.end());
    offsets.push_back(static_cast<int64_t>(indices.size()));
    listed += row.size();
  }
  REQUIRE(listed == blocks.neighbors());
}

TEST_CASE("neighbour blocks hold the brute-force rows on every target and thread count") {
  std::vector<PointSet> sets = PointSets();
  // More points in one cell than a query buffers at once: rows are found in chunks.
  sets.push_back(
      {"1500 equal", std::vector<glm::vec3>(1500, glm::vec3(0.5f, -2.0f, 1.0f)), 0.3f, true});
  ForEachGridCase(sets, [](const PointSet& set, const NeighborGrid& grid, ThreadPool& pool,
                           MemoryAccountant& memory, const reference::NeighborRows& expected,
                           const reference::NeighborRows& expected_half) {
    NeighborBlocks blocks(memory);
    for (const auto* want : {&expected, &expected_half}) {
      const float radius = want == &expected ? set.radius : set.radius * 0.5f;
      REQUIRE(blocks.Build(grid, radius, pool).ok());
      std::vector<int64_t> offsets;
      std::vector<int32_t> indices;
      ReadBlocks(grid, blocks, offsets, indices);
      RequireRowsMatch(set, radius, offsets, indices.data(), *want);
    }
  });
}

TEST_CASE("neighbour rows match their golden values on every target") {
  for (const PointSet& set : {Uniform(2000, 0.135f, 1), FarApart(), Clustered()}) {
    MemoryAccountant memory;
    ThreadPool pool(2);
    const Vec4Buffer points = ToBuffer(memory, set.points);
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO(set.name << ", target " << target.name);
      NeighborGrid grid(memory);
      NeighborLists lists(memory);
      REQUIRE(grid.Build(points.view(), set.radius, pool).ok());
      REQUIRE(grid.ListNeighbors(set.radius, pool, lists).ok());
      PaddedArray<int64_t> offsets = PaddedArray<int64_t>::Create(memory, 0).value();
      PaddedArray<int32_t> indices = PaddedArray<int32_t>::Create(memory, 0).value();
      REQUIRE(NeighborRowsInInputOrder(grid, lists, pool, offsets, indices).ok());
      StateHasher hasher;
      hasher.AddBytes(offsets.span().data(), offsets.size() * sizeof(int64_t));
      hasher.AddBytes(indices.span().data(), indices.size() * sizeof(int32_t));
      std::string key = "particles.neighbor_rows." + set.name;
      std::replace(key.begin(), key.end(), ' ', '_');
      test::CheckGolden(key, hasher.Digest());
    });
  }
}

TEST_CASE("the sort keeps each cell's points in input order and the coordinates in sorted order") {
  const PointSet set = Uniform(3000, 0.1f, 5);
  MemoryAccountant memory;
  ThreadPool pool(2);
  const Vec4Buffer points = ToBuffer(memory, set.points);
  NeighborGrid grid(memory);
  REQUIRE(grid.Build(points.view(), set.radius, pool).ok());
  const std::span<const uint32_t> order = grid.order();
  std::vector<uint32_t> seen(order.begin(), order.end());
  std::sort(seen.begin(), seen.end());
  for (size_t i = 0; i < seen.size(); ++i) REQUIRE(seen[i] == i);  // a permutation
  const std::span<const uint32_t> start = grid.bucket_start();
  const ConstVec4View sorted = grid.sorted_points();
  const CellGrid& cells = grid.cells();
  for (size_t b = 0; b + 1 < start.size(); ++b) {
    for (uint32_t s = start[b]; s < start[b + 1]; ++s) {
      const glm::vec3 p = set.points[order[s]];
      REQUIRE(sorted.x()[s] == p.x);
      REQUIRE(sorted.y()[s] == p.y);
      REQUIRE(sorted.z()[s] == p.z);
      // The point's cell, in double, is bucket b (x-fastest numbering).
      const auto cell = [&](int axis) {
        return static_cast<uint32_t>(std::floor(
            (static_cast<double>(p[axis]) - cells.origin[axis]) * cells.inverse_cell_size));
      };
      REQUIRE((cell(2) * cells.dims[1] + cell(1)) * cells.dims[0] + cell(0) == b);
      if (s > start[b]) REQUIRE(order[s - 1] < order[s]);
    }
  }
}

TEST_CASE("sphere and box queries equal a brute-force scan") {
  for (const PointSet& set : {Uniform(2000, 0.1f, 9), FarApart(), Lattice()}) {
    MemoryAccountant memory;
    ThreadPool pool(1);
    const Vec4Buffer points = ToBuffer(memory, set.points);
    NeighborGrid grid(memory);
    REQUIRE(grid.Build(points.view(), set.radius, pool).ok());
    PaddedArray<int32_t> found = PaddedArray<int32_t>::Create(memory, 0).value();
    std::mt19937 random(2);
    std::uniform_int_distribution<size_t> pick(0, set.points.size() - 1);
    std::uniform_real_distribution<float> size(0.01f, 0.6f);
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      for (int query = 0; query < 40; ++query) {
        INFO(set.name << ", target " << target.name << ", query " << query);
        const glm::vec3 center = set.points[pick(random)] + glm::vec3(0.01f, -0.02f, 0.005f);
        // Radii from below the grid's to far above it (up to whole-set scans).
        const float radius = query < 35 ? size(random) : 1.0e6f;
        REQUIRE(grid.QuerySphere(center, radius, found).ok());
        std::vector<int32_t> want;
        for (size_t i = 0; i < set.points.size(); ++i) {
          const glm::vec3 d = set.points[i] - center;
          // The kernel's float sequence (no FMA: tests compile with -ffp-contract=off).
          if (d.x * d.x + d.y * d.y + d.z * d.z <= radius * radius)
            want.push_back(static_cast<int32_t>(i));
        }
        REQUIRE(std::vector<int32_t>(found.span().begin(), found.span().end()) == want);

        const glm::vec3 half(size(random), size(random) * 0.5f, size(random) * 2.0f);
        REQUIRE(grid.QueryBox(center - half, center + half, found).ok());
        want.clear();
        for (size_t i = 0; i < set.points.size(); ++i) {
          const glm::vec3 p = set.points[i];
          if (glm::all(glm::greaterThanEqual(p, center - half)) &&
              glm::all(glm::lessThanEqual(p, center + half))) {
            want.push_back(static_cast<int32_t>(i));
          }
        }
        REQUIRE(std::vector<int32_t>(found.span().begin(), found.span().end()) == want);
      }
    });
    // A sphere and a box that miss the points entirely.
    REQUIRE(grid.QuerySphere({1.0e7f, 0.0f, 0.0f}, 1.0f, found).ok());
    REQUIRE(found.size() == 0);
    REQUIRE(grid.QueryBox({-9e9f, -9e9f, -9e9f}, {-8e9f, -8e9f, -8e9f}, found).ok());
    REQUIRE(found.size() == 0);
  }
}

TEST_CASE("reordering into cell order moves every attribute and round-trips") {
  const PointSet set = Uniform(5000, 0.08f, 13);
  MemoryAccountant memory;
  ThreadPool pool(3);
  const Vec4Buffer points = ToBuffer(memory, set.points);  // w = the input index
  FloatArray mass = FloatArray::Create(memory, set.points.size()).value();
  for (size_t i = 0; i < mass.size(); ++i) mass[i] = 1.0f + 0.5f * static_cast<float>(i);
  NeighborGrid grid(memory);
  REQUIRE(grid.Build(points.view(), set.radius, pool).ok());
  Vec4Buffer moved = Vec4Buffer::Create(memory, points.size()).value();
  FloatArray moved_mass = FloatArray::Create(memory, mass.size()).value();
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    grid.ReorderInto(points.view(), moved.view(), pool);
    grid.ReorderInto(mass.view(), moved_mass.view(), pool);
    const std::span<const uint32_t> order = grid.order();
    for (size_t s = 0; s < order.size(); ++s) {
      REQUIRE(moved.Get(s) == points.Get(order[s]));
      REQUIRE(moved.Get(s).w == static_cast<float>(order[s]));  // the map back
      REQUIRE(moved_mass[s] == mass[order[s]]);
    }
    // Rebuilding from the moved points sorts nothing: cell order is now storage order.
    NeighborGrid again(memory);
    REQUIRE(again.Build(moved.view(), set.radius, pool).ok());
    for (size_t s = 0; s < order.size(); ++s) REQUIRE(again.order()[s] == s);
    // Padding stays zero.
    for (size_t s = moved.size(); s < moved.capacity(); ++s) REQUIRE(moved.view().x()[s] == 0.0f);
  });
}

TEST_CASE("bad radii, points and capacities are errors naming the problem") {
  MemoryAccountant memory;
  ThreadPool pool(1);
  std::vector<glm::vec3> points = Uniform(100, 0.2f, 3).points;
  NeighborGrid grid(memory);
  NeighborLists lists(memory);
  {
    const Vec4Buffer buffer = ToBuffer(memory, points);
    for (float radius : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(),
                         std::numeric_limits<float>::infinity()}) {
      const Status status = grid.Build(buffer.view(), radius, pool);
      REQUIRE(status.code() == ErrorCode::kInvalidArgument);
      REQUIRE(status.message().find("radius must be finite and > 0") != std::string::npos);
    }
    REQUIRE(grid.Build(buffer.view(), 0.2f, pool).ok());
    const Status too_far = grid.ListNeighbors(0.3f, pool, lists);
    REQUIRE(too_far.message() ==
            "neighbour radius 0.3 exceeds the radius the grid was built for (0.2)");
    std::vector<uint32_t> counts(7);
    REQUIRE(grid.CountNeighbors(0.2f, pool, counts).message() ==
            "neighbour counts: 7 entries given, the grid has 100 points");
  }
  SECTION("a NaN or infinite coordinate names the first such point") {
    points[42].y = std::numeric_limits<float>::quiet_NaN();
    points[70].z = std::numeric_limits<float>::infinity();
    const Vec4Buffer buffer = ToBuffer(memory, points);
    const Status status = grid.Build(buffer.view(), 0.2f, pool);
    REQUIRE(status.code() == ErrorCode::kInvalidArgument);
    REQUIRE(status.message().rfind("point 42 is not finite (", 0) == 0);
    REQUIRE(grid.size() == 0);  // the failed build left an empty grid
  }
  SECTION("points too far apart for any grid") {
    points[3] = glm::vec3(-3.0e38f, 0.0f, 0.0f);
    points[4] = glm::vec3(3.0e38f, 0.0f, 0.0f);
    const Vec4Buffer buffer = ToBuffer(memory, points);
    const Status status = grid.Build(buffer.view(), 1.0f, pool);
    REQUIRE(status.code() == ErrorCode::kInvalidArgument);
    REQUIRE(status.message().find("more than 2^30 cells of the radius 1") != std::string::npos);
  }
  SECTION("lists over their capacity are an error naming the count") {
    const Vec4Buffer buffer = ToBuffer(memory, points);
    REQUIRE(grid.Build(buffer.view(), 0.2f, pool).ok());
    NeighborLists full(memory);
    REQUIRE(grid.ListNeighbors(0.2f, pool, full).ok());
    NeighborLists capped(memory, full.entries() - 1);
    const Status status = grid.ListNeighbors(0.2f, pool, capped);
    // Counting stops at the first row past the cap, so the count is a lower bound.
    REQUIRE(status.message() ==
            "neighbour lists need more than " + std::to_string(full.entries() - 1) +
                " entries, more than their capacity of " + std::to_string(full.entries() - 1));
  }
  SECTION("a grid over the memory budget is an error naming the category, and leaves it empty") {
    const Vec4Buffer buffer = ToBuffer(memory, Uniform(50000, 0.02f, 8).points);
    memory.SetBudget(memory.Total().bytes_in_use + 4096);
    const Status status = grid.Build(buffer.view(), 0.02f, pool);
    REQUIRE(status.code() == ErrorCode::kOverBudget);
    REQUIRE(status.message().find("particles") != std::string::npos);
    REQUIRE(grid.size() == 0);
    memory.SetBudget(kNoBudget);
    REQUIRE(grid.Build(buffer.view(), 0.02f, pool).ok());  // and works once memory is there
    REQUIRE(grid.size() == 50000);
  }
  SECTION("lists over the memory budget are an error naming the count and the budget") {
    const Vec4Buffer buffer = ToBuffer(memory, points);
    REQUIRE(grid.Build(buffer.view(), 0.2f, pool).ok());
    memory.SetBudget(memory.Total().bytes_in_use + 2048);
    const Status status = grid.ListNeighbors(0.2f, pool, lists);
    REQUIRE(status.code() == ErrorCode::kOverBudget);
    REQUIRE(status.message().rfind("neighbour lists need ", 0) == 0);
    memory.SetBudget(kNoBudget);
  }
}

TEST_CASE("steady-state rebuilds, lists and blocks allocate nothing") {
  const PointSet set = Uniform(20000, 0.05f, 17);
  MemoryAccountant memory;
  ThreadPool pool(2);
  Vec4Buffer points = ToBuffer(memory, set.points);
  NeighborGrid grid(memory);
  NeighborLists lists(memory);
  NeighborBlocks blocks(memory);
  REQUIRE(grid.Build(points.view(), set.radius, pool).ok());
  REQUIRE(grid.ListNeighbors(set.radius, pool, lists).ok());
  REQUIRE(blocks.Build(grid, set.radius, pool).ok());
  const uint64_t allocations = memory.Total().allocations;
  std::mt19937 random(1);
  std::uniform_real_distribution<float> jitter(-0.002f, 0.002f);
  for (int step = 0; step < 20; ++step) {
    // The points move a little, as particles do between steps.
    const Vec4View view = points.view();
    for (size_t i = 0; i < view.count; ++i) view.x()[i] += jitter(random);
    REQUIRE(grid.Build(points.view(), set.radius, pool).ok());
    REQUIRE(grid.ListNeighbors(set.radius, pool, lists).ok());
    REQUIRE(blocks.Build(grid, set.radius, pool).ok());
  }
  REQUIRE(memory.Total().allocations == allocations);
}

}  // namespace
}  // namespace swarm
