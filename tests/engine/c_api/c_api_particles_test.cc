// Tests for swarm_neighbors (engine/c_api/c_api_particles.cc) through libswarm_c.so: rows against
// a brute-force double-precision loop written here (the random set has no pair within float
// rounding of the radius, so the rows must match exactly), on a vec4 buffer's [N, 4] view and on
// an [N, 3] tensor, with 1 and 3 threads; and bad input with its message, the outputs untouched.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "c_api_test_support.h"
#include "swarm/c_api/swarm_c.h"

namespace swarm::test {
namespace {

using Catch::Matchers::Contains;

struct Rows {
  std::vector<int64_t> offsets;
  std::vector<int32_t> indices;
};

Rows BruteForce(const std::vector<float>& xyz, double radius) {
  const size_t n = xyz.size() / 3;
  Rows rows{{0}, {}};
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      double sum = 0.0;
      for (size_t a = 0; a < 3; ++a) {
        const double d = static_cast<double>(xyz[3 * i + a]) - xyz[3 * j + a];
        sum += d * d;
      }
      if (j != i && std::sqrt(sum) <= radius) rows.indices.push_back(static_cast<int32_t>(j));
    }
    rows.offsets.push_back(static_cast<int64_t>(rows.indices.size()));
  }
  return rows;
}

Rows Read(swarm_buffer offsets, swarm_buffer indices) {
  TensorPtr offset_view = ViewOf(offsets);
  TensorPtr index_view = ViewOf(indices);
  const swarm_tensor_info o = Info(offset_view.get());
  const swarm_tensor_info x = Info(index_view.get());
  REQUIRE(o.dtype == SWARM_S64);
  REQUIRE(x.dtype == SWARM_S32);
  REQUIRE(o.rank == 1);
  REQUIRE(x.rank == 1);
  const auto* offset = static_cast<const int64_t*>(o.data);
  const auto* index = static_cast<const int32_t*>(x.data);
  return {{offset, offset + o.shape[0]}, {index, index + x.shape[0]}};
}

TEST_CASE("swarm_neighbors lists every pair within the radius, ascending, on any thread count") {
  std::mt19937 random(3);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<float> xyz(3 * 800);
  for (float& v : xyz) v = unit(random);
  const float radius = 0.3f;
  const Rows expected = BruteForce(xyz, radius);
  for (size_t threads : {1, 3}) {
    INFO(threads << " threads");
    ContextPtr context = MakeContext(0, threads);
    // A vec4 buffer's view, [N, 4] with lane-major strides.
    swarm_buffer raw = nullptr;
    REQUIRE(swarm_buffer_create_vec4(context.get(), 800, &raw) == SWARM_OK);
    BufferPtr points(raw);
    TensorPtr view = ViewOf(points.get());
    const swarm_tensor_info info = Info(view.get());
    for (int64_t i = 0; i < 800; ++i) {
      for (int64_t a = 0; a < 3; ++a) *ElementOf<float>(info, {i, a}) = xyz[3 * i + a];
      *ElementOf<float>(info, {i, 3}) = std::numeric_limits<float>::quiet_NaN();  // not read
    }
    swarm_buffer offsets = nullptr;
    swarm_buffer indices = nullptr;
    REQUIRE(swarm_neighbors(context.get(), view.get(), radius, &offsets, &indices) == SWARM_OK);
    BufferPtr offsets_owner(offsets);
    BufferPtr indices_owner(indices);
    const Rows got = Read(offsets, indices);
    REQUIRE(got.offsets == expected.offsets);
    REQUIRE(got.indices == expected.indices);

    // The same points as a C-order [N, 3] tensor.
    BufferPtr packed = MakeTensorBuffer(context.get(), SWARM_F32, {800, 3});
    TensorPtr packed_view = ViewOf(packed.get());
    std::copy(xyz.begin(), xyz.end(), static_cast<float*>(Info(packed_view.get()).data));
    swarm_buffer offsets3 = nullptr;
    swarm_buffer indices3 = nullptr;
    REQUIRE(swarm_neighbors(context.get(), packed_view.get(), radius, &offsets3, &indices3) ==
            SWARM_OK);
    BufferPtr offsets3_owner(offsets3);
    BufferPtr indices3_owner(indices3);
    const Rows got3 = Read(offsets3, indices3);
    REQUIRE(got3.offsets == expected.offsets);
    REQUIRE(got3.indices == expected.indices);
  }
}

TEST_CASE("swarm_neighbors refuses bad input with a message and leaves the outputs alone") {
  ContextPtr context = MakeContext();
  BufferPtr packed = MakeTensorBuffer(context.get(), SWARM_F32, {10, 3});
  TensorPtr view = ViewOf(packed.get());
  auto* data = static_cast<float*>(Info(view.get()).data);
  for (int i = 0; i < 30; ++i) data[i] = 0.25f * static_cast<float>(i);
  swarm_buffer offsets = nullptr;
  swarm_buffer indices = nullptr;
  const auto fails = [&](swarm_tensor points, float radius, const std::string& message) {
    REQUIRE(swarm_neighbors(context.get(), points, radius, &offsets, &indices) ==
            SWARM_INVALID_ARGUMENT);
    REQUIRE_THAT(LastError(), Contains(message));
    REQUIRE(offsets == nullptr);
    REQUIRE(indices == nullptr);
  };
  fails(view.get(), 0.0f, "swarm_neighbors: neighbour radius must be finite and > 0, got 0");
  fails(view.get(), std::numeric_limits<float>::quiet_NaN(), "radius must be finite");
  data[3 * 7 + 2] = std::numeric_limits<float>::infinity();
  fails(view.get(), 1.0f, "point 7 is not finite (5.25, 5.5, inf)");
  BufferPtr wrong = MakeTensorBuffer(context.get(), SWARM_F64, {10, 3});
  TensorPtr wrong_view = ViewOf(wrong.get());
  fails(wrong_view.get(), 1.0f, "points must be an f32 tensor [N, 3] or [N, 4], got f64[10][3]");
  BufferPtr flat = MakeTensorBuffer(context.get(), SWARM_F32, {30});
  TensorPtr flat_view = ViewOf(flat.get());
  fails(flat_view.get(), 1.0f, "got f32[30]");
  REQUIRE(swarm_neighbors(nullptr, view.get(), 1.0f, &offsets, &indices) == SWARM_INVALID_ARGUMENT);
  REQUIRE(LastError() == "swarm_neighbors: context is null");
  REQUIRE(swarm_neighbors(context.get(), view.get(), 1.0f, nullptr, &indices) ==
          SWARM_INVALID_ARGUMENT);
  REQUIRE(LastError() == "swarm_neighbors: offsets is null");
}

}  // namespace
}  // namespace swarm::test
