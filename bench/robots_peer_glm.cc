// The glm per-robot forward kinematics peer, compiled -O2 (bench/CMakeLists.txt).
#include "bench/robots_peer_glm.h"

namespace swarm::bench {

void GlmForwardKinematics(std::span<const GlmJoint> joints, size_t q_count, const float* q,
                          size_t robots, GlmPose* poses) {
  const size_t links = joints.size() + 1;
  for (size_t r = 0; r < robots; ++r) {
    const float* q_robot = q + r * q_count;
    GlmPose* link = poses + r * links;
    link[0] = GlmPose{};
    for (size_t i = 0; i < joints.size(); ++i) {
      const GlmJoint& joint = joints[i];
      const GlmPose& parent = link[joint.parent_link];
      glm::quat rotation = parent.rotation * joint.origin_rotation;
      glm::vec3 translation = parent.translation + parent.rotation * joint.origin_translation;
      if (joint.motion != GlmJoint::Motion::kFixed) {
        const float value = joint.multiplier * q_robot[joint.q_index] + joint.offset;
        if (joint.motion == GlmJoint::Motion::kRevolute) {
          rotation = rotation * glm::angleAxis(value, joint.axis);
        } else {
          translation += rotation * (joint.axis * value);
        }
      }
      link[i + 1] = GlmPose{rotation, translation};
    }
  }
}

}  // namespace swarm::bench
