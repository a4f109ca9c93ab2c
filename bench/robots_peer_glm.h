// The natural per-robot peer of swarm's batched robot kinematics: forward kinematics one robot
// at a time with glm quaternions, the loop a C++ robotics programmer writes (bench/
// robots_peer_glm.cc, compiled -O2 like the other glm peers). Array of structures: robot r's
// joint values are q[r q_count ...] and its link poses poses[r links ...].
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <span>

namespace swarm::bench {

// Joint i moves link i + 1 relative to link parent_link (< i + 1), as
// swarm/kernels/robots/robot_kinematics.h numbers them: child = parent o origin o motion(multiplier
// q[q_index] + offset).
struct GlmJoint {
  enum class Motion : uint8_t { kFixed, kRevolute, kPrismatic };
  size_t parent_link = 0;
  Motion motion = Motion::kFixed;
  size_t q_index = 0;  // unused for fixed joints
  float multiplier = 1.0f;
  float offset = 0.0f;
  glm::quat origin_rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 origin_translation{0.0f};
  glm::vec3 axis{1.0f, 0.0f, 0.0f};  // unit
};

struct GlmPose {
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 translation{0.0f};
};

// World poses of the joints.size() + 1 links of each of `robots` robots (link 0, the root, at
// the identity). q holds robots * q_count floats, poses robots * (joints.size() + 1).
void GlmForwardKinematics(std::span<const GlmJoint> joints, size_t q_count, const float* q,
                          size_t robots, GlmPose* poses);

}  // namespace swarm::bench
