// Tests for the limits of swarm/particles/neighbor_grid.h: radii whose square would overflow or
// underflow float32 are refused (they listed points as their own neighbours, and points many radii
// apart), every accepted radius and point range gives the brute-force double-precision rows
// (swarm/kernels/particles/neighbor_search_reference.h) on every SIMD target, and lists larger
// than the memory budget are refused after work in proportion to the budget, not to the pairs.
//
// The fuzz draws radii over their whole accepted range (2^-60 .. 2^62) and point clouds of every
// scale and offset (1e-30 .. 1e30) around them, with duplicates; pairs within a relative 2^-20 of
// the radius may go either way (float32 test against a double reference), as in
// neighbor_grid_test.cc.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <glm/vec3.hpp>
#include <random>
#include <string>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/particles/neighbor_search_reference.h"
#include "swarm/particles/neighbor_grid.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

Vec4Buffer ToBuffer(MemoryAccountant& memory, const std::vector<glm::vec3>& points) {
  Vec4Buffer buffer = Vec4Buffer::Create(memory, points.size()).value();
  for (size_t i = 0; i < points.size(); ++i) buffer.Set(i, glm::vec4(points[i], 0.0f));
  return buffer;
}

struct Rows {
  std::vector<int64_t> offsets;
  std::vector<int32_t> indices;
};

Result<Rows> ListRows(const std::vector<glm::vec3>& points, float radius, size_t threads) {
  MemoryAccountant memory;
  ThreadPool pool(threads);
  const Vec4Buffer buffer = ToBuffer(memory, points);
  NeighborGrid grid(memory);
  if (Status s = grid.Build(buffer.view(), radius, pool); !s.ok()) return s;
  NeighborLists lists(memory);
  if (Status s = grid.ListNeighbors(radius, pool, lists); !s.ok()) return s;
  PaddedArray<int64_t> offsets = PaddedArray<int64_t>::Create(memory, 0).value();
  PaddedArray<int32_t> indices = PaddedArray<int32_t>::Create(memory, 0).value();
  if (Status s = NeighborRowsInInputOrder(grid, lists, pool, offsets, indices); !s.ok()) return s;
  return Rows{{offsets.span().begin(), offsets.span().end()},
              {indices.span().begin(), indices.span().end()}};
}

// The rows against the reference: equal but for pairs within float rounding of the radius.
void RequireReferenceRows(const std::vector<glm::vec3>& points, double radius, const Rows& got) {
  const reference::NeighborRows want = reference::NeighborsWithin(points, radius);
  REQUIRE(got.offsets.size() == points.size() + 1);
  for (size_t i = 0; i < points.size(); ++i) {
    const std::vector<int32_t> row(got.indices.begin() + got.offsets[i],
                                   got.indices.begin() + got.offsets[i + 1]);
    const std::vector<int32_t> expected(want.indices.begin() + want.offsets[i],
                                        want.indices.begin() + want.offsets[i + 1]);
    REQUIRE(std::is_sorted(row.begin(), row.end()));
    REQUIRE(std::find(row.begin(), row.end(), static_cast<int32_t>(i)) == row.end());
    std::vector<int32_t> differ;
    std::set_symmetric_difference(row.begin(), row.end(), expected.begin(), expected.end(),
                                  std::back_inserter(differ));
    for (int32_t j : differ) {
      INFO("point " << i << " and " << j << " differ from the reference");
      REQUIRE(reference::NearRadius(points[i], points[static_cast<size_t>(j)], radius));
    }
  }
}

TEST_CASE("radii whose square leaves float32's normal range are refused, naming the limit") {
  const std::vector<glm::vec3> points = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}};
  for (float radius : {1e20f, 1e30f, 3.4e38f, std::nextafter(kMaxNeighborRadius, 1e30f)}) {
    INFO("radius " << radius);
    const Result<Rows> rows = ListRows(points, radius, 1);
    REQUIRE(rows.status().code() == ErrorCode::kInvalidArgument);
    REQUIRE(rows.status().message().rfind("neighbour radius ", 0) == 0);
    REQUIRE(rows.status().message().find("is too large: at most 4.611686e+18 (2^62)") !=
            std::string::npos);
  }
  for (float radius : {1e-30f, 1e-40f, std::nextafter(kMinNeighborRadius, 0.0f)}) {
    INFO("radius " << radius);
    const Result<Rows> rows = ListRows(points, radius, 1);
    REQUIRE(rows.status().code() == ErrorCode::kInvalidArgument);
    REQUIRE(rows.status().message().find("is too small: at least 8.6736174e-19 (2^-60)") !=
            std::string::npos);
  }
  // The sphere query shares the rule.
  MemoryAccountant memory;
  ThreadPool pool(1);
  const Vec4Buffer buffer = ToBuffer(memory, points);
  NeighborGrid grid(memory);
  REQUIRE(grid.Build(buffer.view(), 1.0f, pool).ok());
  PaddedArray<int32_t> found = PaddedArray<int32_t>::Create(memory, 0).value();
  REQUIRE(grid.QuerySphere({0, 0, 0}, 1e20f, found)
              .message()
              .find("query radius 1e+20 is too "
                    "large") == 0);
  // At the limits themselves the rows are the reference's.
  for (float radius : {kMaxNeighborRadius, kMinNeighborRadius}) {
    const float scale = radius * 0.75f;
    const std::vector<glm::vec3> spread = {
        {0, 0, 0}, {scale, 0, 0}, {scale, scale, 0}, {-scale, scale, scale}, {0, 0, 0}};
    Result<Rows> rows = ListRows(spread, radius, 1);
    REQUIRE(rows.ok());
    RequireReferenceRows(spread, radius, rows.value());
  }
}

// A random cloud: `count` points at `offset` plus a scale of `scale`, some duplicated, some on a
// coarse lattice of the radius (pairs at exactly the radius's multiples).
std::vector<glm::vec3> RandomCloud(std::mt19937& random, size_t count, double offset, double scale,
                                   double radius) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_int_distribution<int> step(-3, 3);
  std::vector<glm::vec3> points;
  for (size_t i = 0; i < count; ++i) {
    const int k = kind(random);
    if (k == 0 && !points.empty()) {
      points.push_back(points[random() % points.size()]);
    } else if (k == 1) {
      points.push_back(glm::vec3(static_cast<float>(offset + step(random) * radius),
                                 static_cast<float>(offset + step(random) * radius),
                                 static_cast<float>(offset)));
    } else {
      points.push_back(glm::vec3(static_cast<float>(offset + scale * unit(random)),
                                 static_cast<float>(offset + scale * unit(random)),
                                 static_cast<float>(offset + scale * unit(random))));
    }
  }
  return points;
}

TEST_CASE("fuzzed radii and point ranges give the reference rows or a clear error") {
  std::mt19937 random(38);
  std::uniform_real_distribution<double> exponent(-30.0, 30.0);
  std::uniform_real_distribution<double> relative(-3.0, 1.0);
  std::uniform_int_distribution<size_t> count(1, 300);
  std::bernoulli_distribution negative(0.5);
  size_t listed = 0;
  size_t refused = 0;
  for (int trial = 0; trial < 160; ++trial) {
    const double scale = std::pow(10.0, exponent(random));
    const double offset = (negative(random) ? -1.0 : 1.0) * std::pow(10.0, exponent(random));
    const float radius = static_cast<float>(scale * std::pow(10.0, relative(random)));
    const std::vector<glm::vec3> points = RandomCloud(random, count(random), offset, scale, radius);
    INFO("trial " << trial << ": " << points.size() << " points, scale " << scale << ", offset "
                  << offset << ", radius " << radius);
    const bool radius_ok = radius >= kMinNeighborRadius && radius <= kMaxNeighborRadius;
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO("target " << target.name);
      Result<Rows> rows = ListRows(points, radius, 1 + trial % 2);
      if (!radius_ok) {
        REQUIRE(rows.status().code() == ErrorCode::kInvalidArgument);
        REQUIRE(rows.status().message().find("neighbour radius") == 0);
        ++refused;
        return;
      }
      if (!rows.ok()) {
        // The only other refusal: a cloud spanning more cells of the radius than a grid indexes.
        INFO(rows.status().message());
        REQUIRE(rows.status().message().find("more than 2^30 cells of the radius") !=
                std::string::npos);
        REQUIRE(scale / radius > 0x1p28);
        ++refused;
        return;
      }
      RequireReferenceRows(points, radius, rows.value());
      ++listed;
    });
  }
  // Most trials are listed and checked; some radii fall outside the accepted range.
  REQUIRE(listed > refused);
  REQUIRE(refused > 0);
}

TEST_CASE("lists beyond the memory budget are refused without counting every pair") {
  // 200,000 coincident points have 4e10 neighbour pairs: counting them all takes minutes, and
  // the lists would need 160 GB. Counting stops once a thread's rows pass what the budget can
  // hold (2^22 entries here), about 21 rows of 200,000 candidates.
  const std::vector<glm::vec3> points(200000, glm::vec3(1.0f, 2.0f, 3.0f));
  for (size_t threads : {1, 2}) {
    INFO(threads << " threads");
    MemoryAccountant memory;
    ThreadPool pool(threads);
    const Vec4Buffer buffer = ToBuffer(memory, points);
    NeighborGrid grid(memory);
    REQUIRE(grid.Build(buffer.view(), 0.5f, pool).ok());
    NeighborLists lists(memory);
    memory.SetBudget(memory.Total().bytes_in_use + (size_t{16} << 20));
    const Status status = grid.ListNeighbors(0.5f, pool, lists);
    REQUIRE(status.code() == ErrorCode::kOverBudget);
    INFO(status.message());
    REQUIRE(status.message().rfind("neighbour lists need more than ", 0) == 0);
    REQUIRE(status.message().find("more than the memory budget has left for them") !=
            std::string::npos);
    REQUIRE(lists.rows() == 0);
    // A cap below the budget is named as the cap.
    memory.SetBudget(kNoBudget);
    NeighborLists capped(memory, 1000000);
    const Status over_cap = grid.ListNeighbors(0.5f, pool, capped);
    REQUIRE(over_cap.message() ==
            "neighbour lists need more than 1000000 entries, more than their capacity of 1000000");
  }
}

}  // namespace
}  // namespace swarm
