// The interaction kernels (swarm/kernels/particles/interaction_kernels.h) against brute-force
// references written here in double precision from the formulas of the header, on every SIMD
// target: for each particle, every other particle is visited (no grid), and the sums are taken in
// double.
//
// Tolerance: each output within 1e-4 of the sum of the magnitudes of its terms (float32 terms
// summed in a different order; a term carries a few ulps of relative error). The point sets are
// random, so no pair lies within float rounding of a radius where a term jumps (the flock's view
// radius); the granular and fluid terms vanish continuously at theirs anyway.
#include "swarm/kernels/particles/interaction_kernels.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <numbers>
#include <random>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/particles/neighbor_blocks.h"
#include "swarm/particles/neighbor_grid.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using glm::dvec3;

// Random particles sorted into a grid's cell order, as the engine keeps them, with neighbour lists
// (granular contact, fluids) a quarter of the radius longer than it: the kernels must ignore the
// skin.
struct Cloud {
  MemoryAccountant memory;
  ThreadPool pool{1};
  NeighborGrid grid{memory};
  NeighborBlocks lists{memory};
  Vec4Buffer positions;  // sorted
  Vec4Buffer velocities;
  FloatArray radii;
  FloatArray masses;
  size_t count;

  Cloud(size_t n, float extent, float radius, uint32_t seed) : count(n) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    Vec4Buffer p = Vec4Buffer::Create(memory, n).value();
    Vec4Buffer v = Vec4Buffer::Create(memory, n).value();
    FloatArray r = FloatArray::Create(memory, n).value();
    FloatArray m = FloatArray::Create(memory, n).value();
    for (size_t i = 0; i < n; ++i) {
      for (size_t axis = 0; axis < 3; ++axis) {
        p.view().Lane(axis)[i] = extent * unit(random);
        v.view().Lane(axis)[i] = 2.0f * unit(random) - 1.0f;
      }
      r[i] = 0.02f + 0.03f * unit(random);
      m[i] = 0.5f + unit(random);
    }
    REQUIRE(grid.Build(p.view(), 1.25f * radius, pool).ok());
    positions = Vec4Buffer::Create(memory, n).value();
    velocities = Vec4Buffer::Create(memory, n).value();
    radii = FloatArray::Create(memory, n).value();
    masses = FloatArray::Create(memory, n).value();
    grid.ReorderInto(std::as_const(p).view(), positions.view(), pool);
    grid.ReorderInto(std::as_const(v).view(), velocities.view(), pool);
    grid.ReorderInto(std::as_const(r).view(), radii.view(), pool);
    grid.ReorderInto(std::as_const(m).view(), masses.view(), pool);
    REQUIRE(lists.Build(grid, 1.25f * radius, pool).ok());
  }
  SortedGrid Sorted() const { return {positions.view(), grid.bucket_start().data(), grid.cells()}; }
  dvec3 P(size_t i) const { return dvec3(positions.Get(i)); }
  dvec3 V(size_t i) const { return dvec3(velocities.Get(i)); }
};

void RequireNear(double got, double want, double scale, const char* what, size_t i) {
  INFO(what << " of particle " << i << ": " << got << " vs " << want << " (scale " << scale << ")");
  REQUIRE(std::abs(got - want) <= 1e-4 * scale + 1e-12);
}

TEST_CASE("GranularForces equals the spring-dashpot formula summed in double") {
  Cloud cloud(700, 0.7f, 0.1f, 3);
  GranularParams params;
  params.stiffness = 3.0e3f;
  params.restitution = 0.4f;
  params.friction = 0.3f;
  params.tangential_damping = 40.0f;
  const double log_e = std::log(0.4);
  const double beta = -2.0 * log_e / std::sqrt(std::numbers::pi * std::numbers::pi + log_e * log_e);
  // The reference force on i and the sum of its terms' magnitudes.
  std::vector<dvec3> force(cloud.count), scale(cloud.count);
  std::vector<double> within(cloud.count);
  for (size_t i = 0; i < cloud.count; ++i) {
    for (size_t j = 0; j < cloud.count; ++j) {
      if (j == i) continue;
      const dvec3 offset = cloud.P(i) - cloud.P(j);
      const double distance = glm::length(offset);
      within[i] += distance * distance <= 0.1 * 0.1;
      const double reach = double(cloud.radii[i]) + cloud.radii[j];
      if (!(distance < reach && distance > 0.0)) continue;
      const dvec3 n = offset / distance;
      const dvec3 relative = cloud.V(i) - cloud.V(j);
      const double vn = glm::dot(relative, n);
      const double mass =
          double(cloud.masses[i]) * cloud.masses[j] / (double(cloud.masses[i]) + cloud.masses[j]);
      const double normal =
          params.stiffness * (reach - distance) - beta * std::sqrt(params.stiffness * mass) * vn;
      const dvec3 sliding = relative - vn * n;
      const double speed = glm::length(sliding);
      const double limited =
          std::min(params.friction * std::abs(normal), params.tangential_damping * mass * speed);
      const dvec3 tangential = speed > 0.0 ? -limited / speed * sliding : dvec3(0.0);
      force[i] += normal * n + tangential;
      scale[i] += glm::abs(normal * n) + glm::abs(tangential);
    }
  }
  size_t touching = 0;
  for (const dvec3& s : scale) touching += s.x + s.y + s.z > 0.0;
  REQUIRE(touching > cloud.count / 4);  // the test exercises contacts
  Vec4Buffer forces = Vec4Buffer::Create(cloud.memory, cloud.count).value();
  FloatArray counts = FloatArray::Create(cloud.memory, cloud.count).value();
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    // In two ranges, as threads split the work (at a block boundary).
    const size_t half = cloud.count / 2 / kBlockLanes * kBlockLanes;
    for (auto [begin, end] : {std::pair{size_t{0}, half}, std::pair{half, cloud.count}}) {
      GranularForces(cloud.positions.view(), cloud.lists.view(), 0.1f, cloud.velocities.view(),
                     cloud.radii.view(), cloud.masses.view(), params, begin, end, forces.view(),
                     counts.view());
    }
    for (size_t i = 0; i < cloud.count; ++i) {
      const glm::vec4 got = forces.Get(i);
      const double magnitude = scale[i].x + scale[i].y + scale[i].z;
      RequireNear(got.x, force[i].x, magnitude, "force x", i);
      RequireNear(got.y, force[i].y, magnitude, "force y", i);
      RequireNear(got.z, force[i].z, magnitude, "force z", i);
      REQUIRE(counts[i] == within[i]);
    }
  });
}

TEST_CASE("SteerFlock equals Reynolds' rules evaluated in double") {
  Cloud cloud(600, 3.0f, 0.5f, 5);
  FlockParams params;
  params.view_radius = 0.5f;
  params.separation_radius = 0.2f;
  params.min_speed = 0.3f;
  params.max_speed = 1.2f;
  params.box = {{0.0f, 0.0f, 0.0f}, {3.0f, 3.0f, 3.0f}, 0.5f, 0.0f};
  params.wall_margin = 0.4f;
  const float dt = 0.05f;
  std::vector<dvec3> expected(cloud.count);
  std::vector<double> magnitude(cloud.count);
  for (size_t i = 0; i < cloud.count; ++i) {
    double count = 0.0;
    dvec3 velocity(0.0), offset(0.0), separation(0.0);
    double size = 0.0;
    for (size_t j = 0; j < cloud.count; ++j) {
      const dvec3 d = cloud.P(j) - cloud.P(i);
      const double squared = glm::dot(d, d);
      if (j == i || squared > 0.25) continue;
      count += 1.0;
      velocity += cloud.V(j);
      offset += d;
      if (squared < 0.04 && squared > 0.0) separation += d / squared;
      size += glm::length(cloud.V(j)) + glm::length(d) +
              (squared < 0.04 ? 1.0 / std::sqrt(squared) : 0.0);
    }
    dvec3 steer = -double(params.separation_weight) * separation;
    if (count > 0.0) {
      steer += double(params.alignment_weight) * (velocity / count - cloud.V(i));
      steer += double(params.cohesion_weight) * (offset / count);
    }
    for (int axis = 0; axis < 3; ++axis) {
      const double low = cloud.P(i)[axis] - params.box.min[axis];
      const double high = params.box.max[axis] - cloud.P(i)[axis];
      if (low < params.wall_margin)
        steer[axis] += params.wall_weight * (params.wall_margin - low) / params.wall_margin;
      if (high < params.wall_margin)
        steer[axis] -= params.wall_weight * (params.wall_margin - high) / params.wall_margin;
    }
    dvec3 v = cloud.V(i) + steer * double(dt);
    const double speed = glm::length(v);
    if (speed > params.max_speed) v *= params.max_speed / speed;
    if (speed < params.min_speed && speed > 0.0) v *= params.min_speed / speed;
    expected[i] = v;
    magnitude[i] = glm::length(cloud.V(i)) + dt * (10.0 * size + params.wall_weight) + 1.0;
  }
  Vec4Buffer steered = Vec4Buffer::Create(cloud.memory, cloud.count).value();
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    SteerFlock(cloud.Sorted(), cloud.velocities.view(), params, dt, 0, cloud.count, steered.view(),
               {});
    for (size_t i = 0; i < cloud.count; ++i) {
      const glm::vec4 got = steered.Get(i);
      RequireNear(got.x, expected[i].x, magnitude[i], "velocity x", i);
      RequireNear(got.y, expected[i].y, magnitude[i], "velocity y", i);
      RequireNear(got.z, expected[i].z, magnitude[i], "velocity z", i);
      REQUIRE(got.w == cloud.velocities.Get(i).w);  // lane w carried
    }
  });
}

TEST_CASE("FluidLambdas and FluidCorrections equal the PBF formulas evaluated in double") {
  Cloud cloud(800, 0.5f, 0.1f, 7);
  FluidParams params;
  params.kernel_radius = 0.1f;
  params.rest_density = 1000.0f;
  params.particle_mass = 0.4f;  // compressed: most constraints are active
  const double h = params.kernel_radius;
  const double poly6 = 315.0 / (64.0 * std::numbers::pi * std::pow(h, 9));
  const double spiky = 45.0 / (std::numbers::pi * std::pow(h, 6));
  const double volume = double(params.particle_mass) / params.rest_density;
  const auto w = [&](double r2) { return r2 <= h * h ? poly6 * std::pow(h * h - r2, 3) : 0.0; };
  // grad W_ij at r = p_i - p_j (points from i to j).
  const auto gradient = [&](const dvec3& r) {
    const double d = glm::length(r);
    return d > 0.0 && d <= h ? -spiky * (h - d) * (h - d) / d * r : dvec3(0.0);
  };
  const size_t n = cloud.count;
  std::vector<double> density(n), lambda(n), compliance(n);
  for (size_t i = 0; i < n; ++i) {
    double sum = w(0.0);
    dvec3 grad(0.0);
    double squares = 0.0;
    for (size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const dvec3 r = cloud.P(i) - cloud.P(j);
      sum += w(glm::dot(r, r));
      const dvec3 g = volume * gradient(r);
      grad += g;
      squares += glm::dot(g, g);
    }
    density[i] = params.particle_mass * sum;
    const double c = std::max(density[i] / params.rest_density - 1.0, 0.0);
    compliance[i] = 1.0 / (glm::dot(grad, grad) + squares + params.relaxation);
    lambda[i] = -c * compliance[i];
  }
  FloatArray lambdas = FloatArray::Create(cloud.memory, n).value();
  FloatArray compliances = FloatArray::Create(cloud.memory, n).value();
  FloatArray densities = FloatArray::Create(cloud.memory, n).value();
  Vec4Buffer corrected = Vec4Buffer::Create(cloud.memory, n).value();
  const BoxParams box{{-1.0f, -1.0f, -1.0f}, {2.0f, 2.0f, 2.0f}, 0.0f, 0.0f};
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    const ConstVec4View sorted = std::as_const(cloud.positions).view();
    FluidLambdas(sorted, cloud.lists.view(), params, 0, n, lambdas.view(), compliances.view(),
                 densities.view(), {});
    size_t active = 0;
    for (size_t i = 0; i < n; ++i) {
      RequireNear(densities[i], density[i], density[i], "density", i);
      RequireNear(compliances[i], compliance[i], compliance[i], "compliance", i);
      RequireNear(lambdas[i], lambda[i], 1e-2 * compliance[i] + std::abs(lambda[i]), "lambda", i);
      active += lambda[i] < 0.0;
    }
    REQUIRE(active > n / 2);
    // The correction from the kernel's own multipliers (so that it is tested on its own).
    FluidCorrections(sorted, cloud.lists.view(), lambdas.view(), compliances.view(), params, box, 0,
                     n, corrected.view());
    const double q = params.pressure_distance * h;
    for (size_t i = 0; i < n; ++i) {
      dvec3 move(0.0);
      double magnitude = 0.0;
      for (size_t j = 0; j < n; ++j) {
        if (j == i) continue;
        const dvec3 r = cloud.P(i) - cloud.P(j);
        if (glm::dot(r, r) > h * h || glm::dot(r, r) == 0.0) continue;
        const double s_corr = -params.artificial_pressure *
                              std::pow(w(glm::dot(r, r)) / w(q * q), params.pressure_exponent) *
                              0.5 * (double(compliances[i]) + compliances[j]);
        const dvec3 term = (double(lambdas[i]) + lambdas[j] + s_corr) * gradient(r);
        move += volume * term;
        magnitude += volume * (glm::abs(term).x + glm::abs(term).y + glm::abs(term).z);
      }
      const dvec3 want = cloud.P(i) + move;
      const glm::vec4 got = corrected.Get(i);
      RequireNear(got.x, want.x, magnitude + std::abs(want.x) * 1e-3, "corrected x", i);
      RequireNear(got.y, want.y, magnitude + std::abs(want.y) * 1e-3, "corrected y", i);
      RequireNear(got.z, want.z, magnitude + std::abs(want.z) * 1e-3, "corrected z", i);
    }
  });
}

}  // namespace
}  // namespace swarm
