// Tests for swarm_neighbors (engine/c_api/c_api_particles.cc) through libswarm_c.so: rows against
// a brute-force double-precision loop written here (the random set has no pair within float
// rounding of the radius, so the rows must match exactly), on a vec4 buffer's [N, 4] view and on
// an [N, 3] tensor, with 1 and 3 threads; and bad input with its message, the outputs untouched.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "swarm/c_api/swarm_c.h"
#include "tests/engine/c_api/c_api_test_support.h"

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

namespace swarm::test {
namespace {

TEST_CASE("particle systems step through the C API with views that stay valid") {
  for (swarm_interaction interaction :
       {SWARM_INTERACTION_GRANULAR, SWARM_INTERACTION_FLUID, SWARM_INTERACTION_FLOCK}) {
    INFO("interaction " << interaction);
    ContextPtr context = MakeContext(0, 2);
    swarm_particle_system_desc desc{};
    desc.interaction = interaction;
    desc.box_min[0] = desc.box_min[2] = -1.0f;
    desc.box_max[0] = desc.box_max[2] = 1.0f;
    desc.box_max[1] = 2.0f;
    swarm_particle_system system = nullptr;
    REQUIRE(swarm_particle_system_create(context.get(), 1500, &desc, &system) == SWARM_OK);
    swarm_tensor positions = nullptr;
    swarm_tensor ids = nullptr;
    REQUIRE(swarm_particle_system_tensor(system, SWARM_PARTICLE_POSITIONS, &positions) == SWARM_OK);
    REQUIRE(swarm_particle_system_tensor(system, SWARM_PARTICLE_IDS, &ids) == SWARM_OK);
    // The system may be destroyed first: the views hold its memory.
    for (int step = 0; step < 5; ++step) {
      REQUIRE(swarm_particle_system_step(system, 1.0f / 60.0f) == SWARM_OK);
    }
    swarm_interaction_stats stats{};
    REQUIRE(swarm_particle_system_stats(system, &stats) == SWARM_OK);
    CHECK(stats.steps == 5);
    CHECK(stats.average_neighbors > 1.0);
    swarm_particle_system_destroy(system);
    const swarm_tensor_info p = Info(positions);
    REQUIRE(p.rank == 2);
    REQUIRE(p.shape[0] == 1500);
    REQUIRE(p.shape[1] == 4);
    size_t outside = 0;
    for (int64_t i = 0; i < 1500; ++i) {
      for (int64_t axis = 0; axis < 3; ++axis) {
        const float value = *ElementOf<float>(p, {i, axis});
        outside += !(value >= desc.box_min[axis] && value <= desc.box_max[axis]);
      }
    }
    CHECK(outside == 0);
    const swarm_tensor_info id = Info(ids);
    REQUIRE(id.dtype == SWARM_U32);
    REQUIRE(id.read_only);
    std::vector<uint32_t> seen(static_cast<const uint32_t*>(id.data),
                               static_cast<const uint32_t*>(id.data) + 1500);
    std::sort(seen.begin(), seen.end());
    for (uint32_t k = 0; k < 1500; ++k) REQUIRE(seen[k] == k);
    swarm_tensor_destroy(positions);
    swarm_tensor_destroy(ids);
  }
}

TEST_CASE("particle system calls refuse bad arguments with a message") {
  ContextPtr context = MakeContext();
  swarm_particle_system_desc desc{};
  swarm_particle_system system = nullptr;
  desc.interaction = static_cast<swarm_interaction>(9);
  REQUIRE(swarm_particle_system_create(context.get(), 10, &desc, &system) ==
          SWARM_INVALID_ARGUMENT);
  REQUIRE_THAT(LastError(), Contains("desc interaction 9 is not one of"));
  desc.interaction = SWARM_INTERACTION_FLUID;
  desc.box_min[1] = 3.0f;
  desc.box_max[1] = 1.0f;
  REQUIRE(swarm_particle_system_create(context.get(), 10, &desc, &system) ==
          SWARM_INVALID_ARGUMENT);
  REQUIRE_THAT(LastError(), Contains("box_min < box_max"));
  REQUIRE(system == nullptr);
  desc.box_min[1] = desc.box_max[1] = 0.0f;
  REQUIRE(swarm_particle_system_create(context.get(), 0, &desc, &system) == SWARM_INVALID_ARGUMENT);
  REQUIRE(swarm_particle_system_create(context.get(), 100, &desc, &system) == SWARM_OK);
  REQUIRE(swarm_particle_system_step(system, -1.0f) == SWARM_INVALID_ARGUMENT);
  swarm_tensor tensor = nullptr;
  REQUIRE(swarm_particle_system_tensor(system, static_cast<swarm_particle_array>(7), &tensor) ==
          SWARM_INVALID_ARGUMENT);
  REQUIRE(LastError() ==
          "swarm_particle_system_tensor: array 7 is not a swarm_particle_array (0..2)");
  REQUIRE(swarm_particle_system_step(nullptr, 0.1f) == SWARM_INVALID_ARGUMENT);
  swarm_particle_system_destroy(system);
  swarm_particle_system_destroy(nullptr);
}

}  // namespace
}  // namespace swarm::test
