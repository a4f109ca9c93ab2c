#include "swarm/kernels/particles/emit_reference.h"

#include <algorithm>
#include <cmath>
#include <glm/vec3.hpp>

#include "swarm/kernels/base/deterministic_math_reference.h"
#include "swarm/kernels/base/random_reference.h"

namespace swarm::reference {

// One particle of kernels/particles/emit-inl.h's EmitVector: the same operations in the same order
// (the formulas are in swarm/kernels/particles/emit.h, next to EmitterParams).
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
