// Tests for interacting particle systems (swarm/particles/particle_interactions.h) against
// analytic solutions and conservation laws:
//   granular  a head-on collision of two spheres against the linear spring-dashpot's analytic
//             restitution and contact time; the momentum of an isolated colliding cloud; a
//             settled pile's overlaps;
//   flock     separation keeping boids apart; alignment of two boids against its closed form;
// and every model's state hash equal on every SIMD target and 1-3 threads.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/particles/particle_system.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"

namespace swarm {
namespace {

ParticleConfig GranularConfigFor(float radius, float stiffness, float restitution) {
  ParticleConfig config;
  config.gravity = {0.0f, 0.0f, 0.0f};
  config.drag_per_second = 0.0f;
  config.box = {{-50.0f, -50.0f, -50.0f}, {50.0f, 50.0f, 50.0f}, 0.5f, 0.0f};
  config.interaction.kind = InteractionKind::kGranular;
  config.interaction.granular.radius_min = radius;
  config.interaction.granular.radius_max = radius;
  config.interaction.granular.contact.stiffness = stiffness;
  config.interaction.granular.contact.restitution = restitution;
  config.interaction.granular.contact.friction = 0.0f;
  config.schedule.min_elements_per_thread = 0;
  return config;
}

glm::vec3 Get3(const ConstVec4View& view, size_t i) {
  return {view.x()[i], view.y()[i], view.z()[i]};
}
void Set3(const Vec4View& view, size_t i, glm::vec3 value) {
  view.x()[i] = value.x;
  view.y()[i] = value.y;
  view.z()[i] = value.z;
}

TEST_CASE("a head-on collision has the analytic restitution and contact time") {
  constexpr float kRadius = 0.1f;
  constexpr float kStiffness = 2.0e4f;
  for (float restitution : {0.3f, 0.7f, 1.0f}) {
    INFO("restitution " << restitution);
    MemoryAccountant memory;
    ThreadPool pool(1);
    const ParticleConfig config = GranularConfigFor(kRadius, kStiffness, restitution);
    Result<ParticleSystem> system = ParticleSystem::Create(memory, 2, config);
    REQUIRE(system.ok());
    Set3(system->mutable_positions(), 0, {-0.15f, 0.0f, 0.0f});
    Set3(system->mutable_positions(), 1, {0.15f, 0.0f, 0.0f});
    Set3(system->mutable_velocities(), 0, {1.0f, 0.0f, 0.0f});
    Set3(system->mutable_velocities(), 1, {-1.0f, 0.0f, 0.0f});
    const double mass = system->interactions().masses()[0];
    const double effective_mass = mass / 2.0;
    const double log_e = std::log(static_cast<double>(restitution));
    const double zeta = -log_e / std::sqrt(std::numbers::pi * std::numbers::pi + log_e * log_e);
    const double contact_time =
        std::numbers::pi / (std::sqrt(kStiffness / effective_mass) * std::sqrt(1.0 - zeta * zeta));
    const float dt = static_cast<float>(contact_time / 200.0);
    int contact_steps = 0;
    for (int step = 0; step < 2000; ++step) {
      REQUIRE(system->Step(dt, pool).ok());
      const ConstVec4View p = system->positions().view();
      if (glm::distance(Get3(p, 0), Get3(p, 1)) < 2.0f * kRadius) ++contact_steps;
    }
    // Storage may be reordered: find each sphere by its id.
    const ConstVec4View v = system->velocities().view();
    const size_t left = system->ids()[0] == 0 ? 0 : 1;
    const double separating = Get3(v, 1 - left).x - Get3(v, left).x;
    // Relative speed 2 before, 2e after: within 1% (first-order integration of 200 steps).
    CHECK(separating / 2.0 == Approx(restitution).epsilon(0.01));
    // Contact lasted the analytic time, to within two steps.
    CHECK(std::abs(contact_steps * dt - contact_time) <= 2.0 * dt);
    // Equal and opposite: the spheres' momenta still cancel (the collision is symmetric).
    CHECK(std::abs(Get3(v, 0).x + Get3(v, 1).x) <= 1e-6);
  }
}

// A cloud of spheres colliding with each other in free space (no gravity, no walls in reach).
ParticleSystem CollidingCloud(MemoryAccountant& memory, size_t count) {
  ParticleConfig config = GranularConfigFor(0.05f, 5.0e3f, 0.5f);
  config.interaction.granular.radius_min = 0.03f;  // mixed sizes and masses
  config.interaction.granular.contact.friction = 0.4f;
  config.emitter.shape = EmitterShape::kBox;
  config.emitter.center = {0.0f, 0.0f, 0.0f};
  config.emitter.half_extent = {0.6f, 0.6f, 0.6f};
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  config.emitter.velocity_spread = {2.0f, 2.0f, 2.0f};
  Result<ParticleSystem> system = ParticleSystem::Create(memory, count, config);
  REQUIRE(system.ok());
  return std::move(system).value();
}

TEST_CASE("an isolated colliding cloud keeps its momentum", "[native]") {
  MemoryAccountant memory;
  ThreadPool pool(2);
  ParticleSystem system = CollidingCloud(memory, 3000);
  const auto momentum = [&] {
    glm::dvec3 total(0.0);
    double scale = 0.0;
    const ConstVec4View v = system.velocities().view();
    for (size_t i = 0; i < system.size(); ++i) {
      const double m = system.interactions().masses()[i];
      total += m * glm::dvec3(Get3(v, i));
      scale += m * glm::length(glm::dvec3(Get3(v, i)));
    }
    return std::pair{total, scale};
  };
  const auto [before, scale] = momentum();
  double contacts = 0.0;
  for (int step = 0; step < 200; ++step) {
    REQUIRE(system.Step(1.0f / 600.0f, pool).ok());
    contacts += system.interactions().stats().average_neighbors;
  }
  REQUIRE(contacts > 0.0);  // the particles did meet
  const auto [after, unused] = momentum();
  // Every pair's forces cancel bit for bit; what remains is the rounding of v += F/m dt in
  // float, a few ulps of each particle's momentum per step.
  CHECK(glm::length(after - before) <= 1e-5 * scale);
}

TEST_CASE("contact lists that outlive substeps give the motion of lists rebuilt every substep") {
  // The same cloud with the default skin and with none (lists rebuilt whenever anything moved):
  // the same pairs meet, in a different order of summation, so positions agree to rounding that
  // the collisions amplify over the steps (seen: ~1e-7 m). The steps are short enough for the
  // lists to outlive several.
  MemoryAccountant memory;
  ThreadPool pool(2);
  ParticleSystem lasting = CollidingCloud(memory, 1500);
  ParticleConfig every_substep = lasting.config();
  every_substep.interaction.granular.list_skin = 0.0f;
  Result<ParticleSystem> rebuilt = ParticleSystem::Create(memory, 1500, every_substep);
  REQUIRE(rebuilt.ok());
  REQUIRE(lasting.interactions().lists().particles() == 0);  // no lists before the first step
  constexpr int kSteps = 120;
  double neighbors = 0.0;
  for (int step = 0; step < kSteps; ++step) {
    REQUIRE(lasting.Step(1.0f / 6000.0f, pool).ok());
    REQUIRE(rebuilt->Step(1.0f / 6000.0f, pool).ok());
    neighbors += lasting.interactions().stats().average_neighbors;
  }
  REQUIRE(neighbors / kSteps > 1.0);  // grains in reach of each other all along
  INFO(lasting.interactions().stats().grid_builds << " builds with the skin");
  REQUIRE(rebuilt->interactions().stats().grid_builds == kSteps);
  REQUIRE(lasting.interactions().stats().grid_builds < kSteps / 2);
  // Particle id -> slot in each system.
  std::vector<size_t> slot_a(1500), slot_b(1500);
  for (size_t s = 0; s < 1500; ++s) {
    slot_a[lasting.ids()[s]] = s;
    slot_b[rebuilt->ids()[s]] = s;
  }
  double worst = 0.0;
  for (size_t id = 0; id < 1500; ++id) {
    const glm::vec3 a = Get3(lasting.positions().view(), slot_a[id]);
    const glm::vec3 b = Get3(rebuilt->positions().view(), slot_b[id]);
    worst = std::max(worst, static_cast<double>(glm::distance(a, b)));
  }
  INFO("worst difference " << worst << " m");
  CHECK(worst <= 1e-5);
}

TEST_CASE("grains moving together keep their contact lists") {
  // A lattice of separate grains falling side by side: every displacement is the same, so no
  // pair closes in and the lists built at the first step serve all the others.
  MemoryAccountant memory;
  ThreadPool pool(1);
  ParticleConfig config = GranularConfigFor(0.05f, 5.0e3f, 0.5f);
  config.gravity = {0.0f, -9.81f, 0.0f};
  config.interaction.lattice_spacing = 0.2f;
  config.emitter.center = {0.0f, 0.0f, 0.0f};
  config.emitter.half_extent = {1.0f, 1.0f, 1.0f};
  Result<ParticleSystem> system = ParticleSystem::Create(memory, 500, config);
  REQUIRE(system.ok());
  for (int step = 0; step < 60; ++step) REQUIRE(system->Step(1.0f / 60.0f, pool).ok());
  CHECK(system->interactions().stats().grid_builds == 1);
  // A grain pushed towards its neighbour makes the lists stale, and they are rebuilt.
  const Vec4View v = system->mutable_velocities();
  v.x()[0] = v.x()[0] + 30.0f;
  REQUIRE(system->Step(1.0f / 60.0f, pool).ok());  // contacts at the start of the step: as built
  CHECK(system->interactions().stats().grid_builds == 1);
  REQUIRE(system->Step(1.0f / 60.0f, pool).ok());  // the grain has moved half a metre
  CHECK(system->interactions().stats().grid_builds == 2);
}

TEST_CASE("a settled pile does not interpenetrate beyond 5% of the radius", "[native]") {
  constexpr float kRadius = 0.05f;
  MemoryAccountant memory;
  ThreadPool pool(2);
  // Stiff enough that 19 layers press the bottom contacts by well under 1% of the radius; the
  // step is a fourteenth of the contact time (3.6 ms).
  ParticleConfig config = GranularConfigFor(kRadius, 1.0e5f, 0.3f);
  config.gravity = {0.0f, -9.81f, 0.0f};
  config.box = {{-0.5f, 0.0f, -0.5f}, {0.5f, 3.0f, 0.5f}, 0.3f, 0.0f};
  config.interaction.granular.density = 500.0f;
  config.interaction.granular.contact.friction = 0.5f;
  config.interaction.lattice_spacing = 2.2f * kRadius;  // dropped from a loose, jittered lattice
  config.interaction.lattice_jitter = 0.08f;
  config.emitter.center = {0.0f, 1.05f, 0.0f};
  config.emitter.half_extent = {0.45f, 1.0f, 0.45f};
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  Result<ParticleSystem> system = ParticleSystem::Create(memory, 1200, config);
  REQUIRE(system.ok());
  for (int step = 0; step < 12000; ++step) REQUIRE(system->Step(0.25e-3f, pool).ok());
  const ConstVec4View p = system->positions().view();
  const ConstVec4View v = system->velocities().view();
  double worst_overlap = 0.0;
  double fastest = 0.0;
  double mean_speed = 0.0;
  for (size_t i = 0; i < system->size(); ++i) {
    fastest = std::max<double>(fastest, glm::length(Get3(v, i)));
    mean_speed += glm::length(Get3(v, i)) / static_cast<double>(system->size());
    for (size_t j = i + 1; j < system->size(); ++j) {
      const double overlap = 2.0 * kRadius - glm::distance(Get3(p, i), Get3(p, j));
      worst_overlap = std::max(worst_overlap, overlap);
    }
    CHECK(p.y()[i] >= kRadius - 1e-6f);  // on or above the floor, by the sphere's radius
  }
  INFO("worst overlap " << worst_overlap / kRadius << " radii, fastest " << fastest << " m/s, mean "
                        << mean_speed << " m/s");
  // Settled: the particles hit the pile at up to 6 m/s; after 3 s they move at 0.3% of that on
  // average, and the fastest (a rattler on the surface) at 4%. (Sliding friction is viscous,
  // without a tangential spring, so a pile keeps creeping slowly rather than locking.)
  CHECK(mean_speed < 0.02);
  CHECK(fastest < 0.25);
  CHECK(worst_overlap <= 0.05 * kRadius);
}

ParticleConfig FlockConfig() {
  ParticleConfig config;
  config.gravity = {0.0f, 0.0f, 0.0f};
  config.drag_per_second = 0.0f;
  config.box = {{-10.0f, -10.0f, -10.0f}, {10.0f, 10.0f, 10.0f}, 1.0f, 0.0f};
  config.interaction.kind = InteractionKind::kFlock;
  config.emitter.center = {0.0f, 0.0f, 0.0f};
  config.emitter.half_extent = {4.0f, 4.0f, 4.0f};
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  config.emitter.velocity_spread = {2.0f, 2.0f, 2.0f};
  config.schedule.min_elements_per_thread = 0;
  return config;
}

TEST_CASE("separation keeps boids apart", "[native]") {
  MemoryAccountant memory;
  ThreadPool pool(2);
  ParticleConfig config = FlockConfig();
  config.interaction.flock.separation_radius = 0.5f;
  config.interaction.flock.separation_weight = 8.0f;
  config.interaction.flock.cohesion_weight = 2.0f;  // pulls them together; separation resists
  Result<ParticleSystem> system = ParticleSystem::Create(memory, 600, config);
  REQUIRE(system.ok());
  double closest_late = 1e9;
  for (int step = 0; step < 900; ++step) {
    REQUIRE(system->Step(1.0f / 60.0f, pool).ok());
    if (step < 600 || step % 20 != 0) continue;  // every 20th of the last 300 steps
    const ConstVec4View p = system->positions().view();
    for (size_t i = 0; i < system->size(); ++i) {
      for (size_t j = i + 1; j < system->size(); ++j) {
        closest_late = std::min<double>(closest_late, glm::distance(Get3(p, i), Get3(p, j)));
      }
    }
  }
  // Cohesion packs the flock; separation holds every pair at more than a fifth of its radius.
  INFO("closest pair over 15 of the last 300 steps: " << closest_late << " m");
  CHECK(closest_late > 0.2 * 0.5);
  // Without separation the same flock packs far tighter: the property is separation's doing.
  config.interaction.flock.separation_weight = 0.0f;
  Result<ParticleSystem> packed = ParticleSystem::Create(memory, 600, config);
  REQUIRE(packed.ok());
  for (int step = 0; step < 900; ++step) REQUIRE(packed->Step(1.0f / 60.0f, pool).ok());
  double closest_packed = 1e9;
  const ConstVec4View p = packed->positions().view();
  for (size_t i = 0; i < packed->size(); ++i) {
    for (size_t j = i + 1; j < packed->size(); ++j) {
      closest_packed = std::min<double>(closest_packed, glm::distance(Get3(p, i), Get3(p, j)));
    }
  }
  CHECK(closest_packed < 0.5 * closest_late);
}

TEST_CASE("alignment of two boids follows its closed form") {
  // Alignment alone: dv1 = w (v2 - v1) dt and dv2 = w (v1 - v2) dt, so the mean velocity stays
  // and the difference shrinks by (1 - 2 w dt) per step.
  MemoryAccountant memory;
  ThreadPool pool(1);
  ParticleConfig config = FlockConfig();
  FlockParams& flock = config.interaction.flock;
  flock.view_radius = 5.0f;
  flock.separation_weight = 0.0f;
  flock.cohesion_weight = 0.0f;
  flock.alignment_weight = 1.5f;
  flock.min_speed = 0.0f;
  flock.max_speed = 100.0f;
  flock.wall_margin = 0.01f;
  Result<ParticleSystem> system = ParticleSystem::Create(memory, 2, config);
  REQUIRE(system.ok());
  Set3(system->mutable_positions(), 0, {0.0f, 0.0f, 0.0f});
  Set3(system->mutable_positions(), 1, {0.5f, 0.0f, 0.0f});
  const glm::dvec3 v1(0.2, 0.1, 0.0), v2(0.1, -0.2, 0.05);
  Set3(system->mutable_velocities(), 0, glm::vec3(v1));
  Set3(system->mutable_velocities(), 1, glm::vec3(v2));
  const double dt = 1.0 / 60.0;
  const int steps = 60;
  for (int step = 0; step < steps; ++step) REQUIRE(system->Step(static_cast<float>(dt), pool).ok());
  const double decay = std::pow(1.0 - 2.0 * flock.alignment_weight * dt, steps);
  const glm::dvec3 mean = 0.5 * (v1 + v2);
  const ConstVec4View v = system->velocities().view();
  for (size_t slot = 0; slot < 2; ++slot) {
    const glm::dvec3 start = system->ids()[slot] == 0 ? v1 : v2;
    const glm::dvec3 expected = mean + (start - mean) * decay;
    CHECK(glm::distance(glm::dvec3(Get3(v, slot)), expected) <= 1e-5);
  }
}

// Water-like particles 5 cm apart on a lattice filling a 50 cm square column of `layers`.
ParticleConfig FluidColumn(int layers, int iterations) {
  constexpr float kSpacing = 0.05f;
  ParticleConfig config;
  config.drag_per_second = 0.0f;
  config.box = {{-0.25f, 0.0f, -0.25f}, {0.25f, 3.0f, 0.25f}, 0.0f, 0.0f};
  config.interaction.kind = InteractionKind::kFluid;
  FluidParams& fluid = config.interaction.fluid;
  fluid.kernel_radius = 2.0f * kSpacing;
  fluid.rest_density = 1000.0f;
  fluid.particle_mass = fluid.rest_density * kSpacing * kSpacing * kSpacing;
  fluid.iterations = iterations;
  config.interaction.lattice_spacing = kSpacing;
  config.emitter.center = {0.0f, 0.5f * kSpacing * static_cast<float>(layers), 0.0f};
  config.emitter.half_extent = {0.25f, 0.5f * kSpacing * static_cast<float>(layers), 0.25f};
  config.emitter.velocity = {0.0f, 0.0f, 0.0f};
  config.schedule.min_elements_per_thread = 0;
  return config;
}

TEST_CASE("a resting fluid column keeps its rest density and a hydrostatic profile", "[native]") {
  MemoryAccountant memory;
  ThreadPool pool(2);
  const ParticleConfig config = FluidColumn(12, 6);
  Result<ParticleSystem> system = ParticleSystem::Create(memory, 1200, config);
  REQUIRE(system.ok());
  for (int step = 0; step < 600; ++step) REQUIRE(system->Step(1.0f / 120.0f, pool).ok());
  const ConstVec4View p = system->positions().view();
  const FloatArray& density = system->interactions().densities();
  const FloatArray& lambda = system->interactions().lambdas();
  const float h = config.interaction.fluid.kernel_radius;
  float top = 0.0f;
  for (size_t i = 0; i < system->size(); ++i) top = std::max(top, p.y()[i]);
  // The interior: a kernel radius from the walls, the floor and the surface (no boundary
  // particles: next to a wall a particle's kernel is cut off, so its density is not the test).
  double error = 0.0;
  size_t interior = 0;
  std::vector<double> depth, pressure;
  for (size_t i = 0; i < system->size(); ++i) {
    const bool inside_walls = std::abs(p.x()[i]) < 0.25f - h && std::abs(p.z()[i]) < 0.25f - h;
    if (!inside_walls) continue;
    depth.push_back(top - p.y()[i]);
    pressure.push_back(-lambda[i]);  // the constraint's multiplier acts as the pressure
    if (p.y()[i] < h || p.y()[i] > top - h) continue;
    error += std::abs(density[i] / config.interaction.fluid.rest_density - 1.0f);
    ++interior;
  }
  REQUIRE(interior > 100);
  INFO("mean interior density error " << error / static_cast<double>(interior));
  CHECK(error / static_cast<double>(interior) < 0.01);
  // Hydrostatic: pressure grows linearly with depth. The mean of each layer (one particle
  // spacing deep) against its depth: least-squares slope > 0 and R^2 > 0.95.
  std::vector<double> layer_depth, layer_pressure;
  for (double from = 0.0; from < top; from += 0.05) {
    double sum = 0.0, count = 0.0;
    for (size_t k = 0; k < depth.size(); ++k) {
      if (depth[k] >= from && depth[k] < from + 0.05) {
        sum += pressure[k];
        count += 1.0;
      }
    }
    if (count > 0.0) {
      layer_depth.push_back(from + 0.025);
      layer_pressure.push_back(sum / count);
    }
  }
  const double n = static_cast<double>(layer_depth.size());
  double mx = 0, my = 0;
  for (size_t k = 0; k < layer_depth.size(); ++k) {
    mx += layer_depth[k] / n;
    my += layer_pressure[k] / n;
  }
  double sxx = 0, sxy = 0, syy = 0;
  for (size_t k = 0; k < layer_depth.size(); ++k) {
    sxx += (layer_depth[k] - mx) * (layer_depth[k] - mx);
    sxy += (layer_depth[k] - mx) * (layer_pressure[k] - my);
    syy += (layer_pressure[k] - my) * (layer_pressure[k] - my);
  }
  const double r_squared = sxy * sxy / (sxx * syy);
  INFO(layer_depth.size() << " layers; pressure against depth: slope " << sxy / sxx << ", R^2 "
                          << r_squared);
  CHECK(layer_depth.size() >= 8);
  CHECK(sxy > 0.0);
  CHECK(r_squared > 0.95);
}

TEST_CASE("a dam break stays in its box", "[native]") {
  MemoryAccountant memory;
  ThreadPool pool(2);
  ParticleConfig config = FluidColumn(16, 4);
  config.gravity = {0.0f, -9.81f, 0.0f};
  config.box = {{-0.25f, 0.0f, -0.25f}, {1.25f, 1.5f, 0.25f}, 0.0f, 0.0f};  // room to the right
  config.interaction.fluid.vorticity = 0.01f;
  Result<ParticleSystem> system = ParticleSystem::Create(memory, 1600, config);
  REQUIRE(system.ok());
  float furthest = 0.0f;
  for (int step = 0; step < 240; ++step) {
    REQUIRE(system->Step(1.0f / 120.0f, pool).ok());
    const ConstVec4View p = system->positions().view();
    const ConstVec4View v = system->velocities().view();
    size_t outside = 0;
    for (size_t i = 0; i < system->size(); ++i) {
      for (size_t axis = 0; axis < 3; ++axis) {
        outside += !std::isfinite(v.Lane(axis)[i]) || !(p.Lane(axis)[i] >= config.box.min[axis]) ||
                   !(p.Lane(axis)[i] <= config.box.max[axis]);
      }
      furthest = std::max(furthest, p.x()[i]);
    }
    INFO("step " << step);
    REQUIRE(outside == 0);
  }
  CHECK(furthest > 1.0f);  // the water ran across the floor to the far wall
}

uint64_t RunHash(const ParticleConfig& config, size_t count, size_t threads, int steps, float dt) {
  MemoryAccountant memory;
  ThreadPool pool(threads);
  Result<ParticleSystem> system = ParticleSystem::Create(memory, count, config);
  REQUIRE(system.ok());
  for (int step = 0; step < steps; ++step) REQUIRE(system->Step(dt, pool).ok());
  return system->StateHash();
}

struct ModelCase {
  const char* name;
  ParticleConfig config;
  float dt;
};

std::vector<ModelCase> ModelCases() {
  ParticleConfig granular = GranularConfigFor(0.05f, 5.0e3f, 0.5f);
  granular.gravity = {0.0f, -9.81f, 0.0f};
  granular.box = {{-1.0f, 0.0f, -1.0f}, {1.0f, 3.0f, 1.0f}, 0.3f, 0.1f};
  granular.interaction.granular.radius_min = 0.03f;
  granular.interaction.granular.contact.friction = 0.5f;
  granular.emitter.center = {0.0f, 1.5f, 0.0f};
  granular.emitter.half_extent = {0.8f, 1.2f, 0.8f};
  granular.schedule.tile_elements = 256;  // several tiles per thread
  ParticleConfig flock = FlockConfig();
  flock.schedule.tile_elements = 256;
  ParticleConfig fluid = FluidColumn(8, 4);
  fluid.gravity = {0.0f, -9.81f, 0.0f};
  fluid.box.max.x = 1.0f;  // a small dam break
  fluid.interaction.fluid.vorticity = 0.01f;
  fluid.schedule.tile_elements = 256;
  return {{"granular", granular, 1.0f / 600.0f},
          {"flock", flock, 1.0f / 60.0f},
          {"fluid", fluid, 1.0f / 120.0f}};
}

TEST_CASE("interacting systems give the same bits on every target and thread count", "[native]") {
  for (const ModelCase& c : ModelCases()) {
    INFO(c.name);
    const uint64_t reference = RunHash(c.config, 1200, 1, 30, c.dt);
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      for (size_t threads = 1; threads <= 3; ++threads) {
        INFO("target " << target.name << ", " << threads << " threads");
        CHECK(RunHash(c.config, 1200, threads, 30, c.dt) == reference);
      }
    });
  }
}

TEST_CASE("interacting systems match their golden values on every target") {
  for (const ModelCase& c : ModelCases()) {
    INFO(c.name);
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO("target " << target.name);
      test::CheckGolden(std::string("particles.interactions.") + c.name + ".500_particles.12_steps",
                        RunHash(c.config, 500, 1, 12, c.dt));
    });
  }
}

TEST_CASE("interacting systems refuse what they cannot do, with a message") {
  MemoryAccountant memory;
  ThreadPool pool(1);
  ParticleConfig config = GranularConfigFor(0.1f, 1.0e3f, 0.5f);
  Result<ParticleSystem> system = ParticleSystem::Create(memory, 100, config);
  REQUIRE(system.ok());
  REQUIRE(system->Resize(200).message() ==
          "an interacting particle system (granular) cannot be resized; create a new one with "
          "200 particles");
  ParticleConfig flock = config;
  flock.interaction.kind = InteractionKind::kFlock;
  REQUIRE(system->Configure(flock).message() ==
          "the interaction cannot change from granular to flock in a running system; create a "
          "new one");
  config.interaction.granular.contact.restitution = 0.0f;
  REQUIRE(ParticleSystem::Create(memory, 10, config).status().message() ==
          "granular restitution must be in (0, 1], got 0");
  config = GranularConfigFor(0.1f, 1.0e3f, 0.5f);
  config.interaction.granular.radius_max = 0.05f;
  REQUIRE(ParticleSystem::Create(memory, 10, config).status().message() ==
          "granular radius_max must be finite and >= radius_min (0.1), got 0.05");
  config = GranularConfigFor(0.1f, 1.0e3f, 0.5f);
  config.interaction.granular.list_skin = -0.5f;
  REQUIRE(ParticleSystem::Create(memory, 10, config).status().message() ==
          "granular list_skin must be in [0, 1], got -0.5");
  // A NaN position placed by the caller stops the step with the particle named; nothing moves.
  const uint64_t hash = system->StateHash();
  system->mutable_positions().y()[37] = std::numeric_limits<float>::quiet_NaN();
  const Status status = system->Step(0.01f, pool);
  REQUIRE(status.message().rfind("point 37 is not finite", 0) == 0);
  REQUIRE(system->steps_taken() == 0);
  (void)hash;
}

}  // namespace
}  // namespace swarm
