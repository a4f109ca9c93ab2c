// Test fixture for the quaternion kernels (swarm/kernels/geometry/quaternion.h): padded SoA
// quaternion, vector and matrix storage (tests/kernels/particles/particle_fixture.h's AlignedArray,
// independent of the engine's buffers), seeded random inputs that reach every branch (all four
// Shepperd cases, negative dot products, tiny slerp angles), and conversions to the glm arrays the
// references take.
#pragma once

#include <cmath>
#include <cstddef>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "swarm/kernels/base/views.h"
#include "tests/kernels/geometry/padded_mat4.h"
#include "tests/kernels/particles/particle_fixture.h"

namespace swarm::test {

// Lanes x, y, z, w of a PaddedVec4 hold glm::quat (w, x, y, z).
inline glm::quat GetQuat(const PaddedVec4& q, size_t i) {
  const glm::vec4 v = q.Get(i);
  return glm::quat(v.w, v.x, v.y, v.z);
}
inline void SetQuat(PaddedVec4& q, size_t i, const glm::quat& value) {
  q.Set(i, glm::vec4(value.x, value.y, value.z, value.w));
}
inline std::vector<glm::quat> ToQuats(const PaddedVec4& q) {
  std::vector<glm::quat> out(q.count());
  for (size_t i = 0; i < q.count(); ++i) out[i] = GetQuat(q, i);
  return out;
}
inline PaddedVec4 FromQuats(const std::vector<glm::quat>& quats, float padding = 0.0f) {
  PaddedVec4 out(quats.size(), padding);
  for (size_t i = 0; i < quats.size(); ++i) SetQuat(out, i, quats[i]);
  return out;
}

// A uniformly random unit quaternion (normalized in double, then rounded to float).
inline glm::quat RandomUnitQuat(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  glm::dquat q(normal(rng), normal(rng), normal(rng), normal(rng));
  q = glm::normalize(q);
  return glm::quat(q);
}

// Rotation by `angle` about a random axis, composed onto q (in double, rounded to float).
inline glm::quat Perturbed(std::mt19937& rng, const glm::quat& q, double angle) {
  std::normal_distribution<double> normal;
  const glm::dvec3 axis = glm::normalize(glm::dvec3(normal(rng), normal(rng), normal(rng)));
  return glm::quat(glm::normalize(glm::angleAxis(angle, axis) * glm::dquat(q)));
}

// Random unit quaternions with both signs of w.
inline std::vector<glm::quat> RandomUnitQuats(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<glm::quat> out(count);
  for (glm::quat& q : out) q = RandomUnitQuat(rng);
  return out;
}

// Interpolation partners for `a`, cycling through: an independent quaternion, a far one with a
// negative dot product, a near one (angle 1e-6 .. 1e-1 rad, log-uniform, so both sides of
// slerp's nlerp threshold), and a near one negated (shorter arc through the sign flip).
inline std::vector<glm::quat> PartnerQuats(const std::vector<glm::quat>& a, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> log_angle(-6.0, -1.0);
  std::vector<glm::quat> b(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    switch (i % 4) {
      case 0:
        b[i] = RandomUnitQuat(rng);
        break;
      case 1: {
        const glm::quat q = RandomUnitQuat(rng);
        b[i] = glm::dot(q, a[i]) < 0.0f ? q : -q;
        break;
      }
      case 2:
        b[i] = Perturbed(rng, a[i], std::pow(10.0, log_angle(rng)));
        break;
      default:
        b[i] = -Perturbed(rng, a[i], std::pow(10.0, log_angle(rng)));
        break;
    }
  }
  return b;
}

// Vectors with x, y, z in [-10, 10] and arbitrary w (which rotations must carry through).
inline PaddedVec4 RandomVectors(size_t count, uint32_t seed, float padding = 0.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> coordinate(-10.0f, 10.0f);
  std::uniform_real_distribution<float> lane_w(-100.0f, 100.0f);
  PaddedVec4 out(count, padding);
  for (size_t i = 0; i < count; ++i) {
    out.Set(i, {coordinate(rng), coordinate(rng), coordinate(rng), lane_w(rng)});
  }
  return out;
}

// Rotation matrices of random unit quaternions (computed in double, rounded to float), with
// arbitrary values in row and column 3, which MatricesToQuaternions must ignore.
inline PaddedMat4 RandomRotationMatrices(size_t count, uint32_t seed, float padding = 0.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> junk(-5.0f, 5.0f);
  PaddedMat4 out(count, padding);
  for (size_t i = 0; i < count; ++i) {
    glm::mat4 m(glm::mat3(glm::mat3_cast(glm::dquat(RandomUnitQuat(rng)))));
    for (int k = 0; k < 4; ++k) {
      m[3][k] = junk(rng);
      m[k][3] = junk(rng);
    }
    out.Set(i, m);
  }
  return out;
}

}  // namespace swarm::test
