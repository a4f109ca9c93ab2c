#include "kernels/integrate_reference.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "kernels/deterministic_math_reference.h"
#include "kernels/lowbias32.h"

namespace swarm::reference {
namespace {

glm::vec3 Xyz(const glm::vec4& v) { return glm::vec3(v); }
void SetXyz(glm::vec4& v, const glm::vec3& xyz) { v = glm::vec4(xyz, v.w); }

}  // namespace

void IntegrateEuler(std::span<glm::vec4> positions, std::span<glm::vec4> velocities,
                    const EulerParams& params) {
  for (size_t i = 0; i < positions.size(); ++i) {
    const glm::vec3 v = Xyz(velocities[i]);
    const glm::vec3 new_v = v + (params.gravity - params.drag_per_second * v) * params.dt_seconds;
    SetXyz(velocities[i], new_v);
    SetXyz(positions[i], Xyz(positions[i]) + new_v * params.dt_seconds);
  }
}

void VerletKickDrift(std::span<glm::vec4> positions, std::span<glm::vec4> velocities,
                     std::span<const glm::vec4> accelerations, float dt_seconds) {
  const float half_dt = 0.5f * dt_seconds;
  for (size_t i = 0; i < positions.size(); ++i) {
    const glm::vec3 v = Xyz(velocities[i]) + Xyz(accelerations[i]) * half_dt;
    SetXyz(velocities[i], v);
    SetXyz(positions[i], Xyz(positions[i]) + v * dt_seconds);
  }
}

void VerletKick(std::span<glm::vec4> velocities, std::span<const glm::vec4> accelerations,
                float dt_seconds) {
  const float half_dt = 0.5f * dt_seconds;
  for (size_t i = 0; i < velocities.size(); ++i) {
    SetXyz(velocities[i], Xyz(velocities[i]) + Xyz(accelerations[i]) * half_dt);
  }
}

void CollideBox(std::span<glm::vec4> positions, std::span<glm::vec4> velocities,
                const BoxParams& params) {
  for (size_t i = 0; i < positions.size(); ++i) {
    bool contact[3];
    for (int axis = 0; axis < 3; ++axis) {
      float& p = positions[i][axis];
      float& v = velocities[i][axis];
      const bool below = p < params.min[axis];
      const bool above = p > params.max[axis];
      contact[axis] = below || above;
      if ((below && v < 0.0f) || (above && v > 0.0f)) v = v * -params.restitution;
      if (below) p = params.min[axis];
      if (above) p = params.max[axis];
    }
    for (int axis = 0; axis < 3; ++axis) {
      if (contact[(axis + 1) % 3] || contact[(axis + 2) % 3]) {
        velocities[i][axis] = velocities[i][axis] * (1.0f - params.friction);
      }
    }
  }
}

void ApplyAttractor(std::span<const glm::vec4> positions, std::span<glm::vec4> velocities,
                    const AttractorParams& params) {
  const float softening_squared = params.softening * params.softening;
  const float strength_dt = params.strength * params.dt_seconds;
  for (size_t i = 0; i < positions.size(); ++i) {
    const glm::vec3 d = params.center - Xyz(positions[i]);
    const float r2 = d.x * d.x + d.y * d.y + d.z * d.z + softening_squared;
    const float scale = strength_dt / (r2 * std::sqrt(r2));
    SetXyz(velocities[i], Xyz(velocities[i]) + d * scale);
  }
}

void AdvanceAge(std::span<float> ages, std::span<const float> lifetimes,
                std::span<uint8_t> dead, float dt_seconds) {
  for (size_t i = 0; i < ages.size(); ++i) {
    ages[i] += dt_seconds;
    dead[i] = ages[i] >= lifetimes[i] ? 1 : 0;
  }
}

float Uniform(RandomStream random, uint32_t counter) {
  const uint32_t seed_low = static_cast<uint32_t>(random.seed);
  const uint32_t seed_high = static_cast<uint32_t>(random.seed >> 32);
  const uint32_t first = LowBias32(seed_low ^ LowBias32(seed_high ^ 0x9e3779b9u));
  const uint32_t second = LowBias32(first ^ random.stream ^ 0x85ebca6bu);
  const uint32_t bits = LowBias32(LowBias32(counter ^ first) + second);
  return static_cast<float>(bits >> 8) * (1.0f / 16777216.0f);
}

void FillUniform(std::span<float> out, RandomStream random, uint32_t first_index, float lo,
                 float hi) {
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = lo + Uniform(random, first_index + static_cast<uint32_t>(i)) * (hi - lo);
  }
}

// One particle of kernels/integrate-inl.h's EmitVector: the same operations in the same order
// (the formulas are in kernels/integrate.h, next to EmitterParams).
EmittedParticle Emit(const EmitterParams& emitter, RandomStream random, uint32_t particle_index) {
  const uint32_t base = particle_index << 3;
  const auto uniform = [&](uint32_t draw) { return Uniform(random, base + draw); };
  const auto symmetric = [&](uint32_t draw) { return uniform(draw) * 2.0f - 1.0f; };
  const auto box_position = [&](int axis) {
    return emitter.center[axis] + emitter.half_extent[axis] * symmetric(axis);
  };
  const auto spread_velocity = [&](int axis) {
    return emitter.velocity[axis] + emitter.velocity_spread[axis] * symmetric(axis + 3);
  };
  EmittedParticle out{};
  switch (emitter.shape) {
    case EmitterShape::kBox:
      for (int axis = 0; axis < 3; ++axis) {
        out.position[axis] = box_position(axis);
        out.velocity[axis] = spread_velocity(axis);
      }
      break;
    case EmitterShape::kSphere: {
      for (int axis = 0; axis < 3; ++axis) out.position[axis] = box_position(axis);
      const float z = symmetric(3);
      float sin_phi, cos_phi;
      SinCos(uniform(4) * kEmitterTwoPi, sin_phi, cos_phi);
      const float r_xy = std::sqrt(std::max(0.0f, 1.0f - z * z));
      const float speed = emitter.radial_speed * uniform(5);
      const glm::vec3 direction(r_xy * cos_phi, r_xy * sin_phi, z);
      for (int axis = 0; axis < 3; ++axis) {
        out.velocity[axis] = emitter.velocity[axis] + direction[axis] * speed;
      }
      break;
    }
    case EmitterShape::kRing: {
      float sin_theta, cos_theta;
      SinCos(uniform(0) * kEmitterTwoPi, sin_theta, cos_theta);
      const float radial = emitter.radius + emitter.half_extent.x * symmetric(1);
      out.position.x = emitter.center.x + radial * cos_theta;
      out.position.y = emitter.center.y + emitter.half_extent.y * symmetric(2);
      out.position.z = emitter.center.z + radial * sin_theta;
      out.velocity.x = spread_velocity(0) - emitter.tangential_speed * sin_theta;
      out.velocity.y = spread_velocity(1);
      out.velocity.z = spread_velocity(2) + emitter.tangential_speed * cos_theta;
      break;
    }
  }
  out.lifetime = emitter.lifetime_min + uniform(6) * (emitter.lifetime_max - emitter.lifetime_min);
  return out;
}

}  // namespace swarm::reference
