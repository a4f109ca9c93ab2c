#include "swarm/kernels/particles/integrate_reference.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

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

void AdvanceAge(std::span<float> ages, std::span<const float> lifetimes, std::span<uint8_t> dead,
                float dt_seconds) {
  for (size_t i = 0; i < ages.size(); ++i) {
    ages[i] += dt_seconds;
    dead[i] = ages[i] >= lifetimes[i] ? 1 : 0;
  }
}

}  // namespace swarm::reference
