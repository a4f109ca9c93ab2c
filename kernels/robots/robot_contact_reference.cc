// Scalar reference for swarm/kernels/robots/robot_contact.h; the order of operations is the
// contract with kernels/robots/robot_contact-inl.h (see
// swarm/kernels/robots/robot_contact_reference.h).
#include "swarm/kernels/robots/robot_contact_reference.h"

#include <cmath>

#include "kernels/geometry/scalar_quaternion.h"

namespace swarm::reference {
namespace {

using scalar_quaternion::Cross;
using scalar_quaternion::Quat;
using scalar_quaternion::Rotate;
using scalar_quaternion::Vec3;

float Dot3(const Vec3& a, const Vec3& b) {
  return (a.v[0] * b.v[0] + a.v[1] * b.v[1]) + a.v[2] * b.v[2];
}

Vec3 Sub(const Vec3& a, const Vec3& b) {
  return {{a.v[0] - b.v[0], a.v[1] - b.v[1], a.v[2] - b.v[2]}};
}

// Robot r's view of its link poses and velocity-like arrays.
struct RobotState {
  const ConstLanesView& poses;
  const ConstLanesView& velocities;
  size_t r;

  Vec3 Position(size_t link) const {
    const size_t first = kPoseArrays * link;
    return {{poses.Array(first)[r], poses.Array(first + 1)[r], poses.Array(first + 2)[r]}};
  }
  Quat Orientation(size_t link) const {
    const size_t first = kPoseArrays * link + 3;
    return {{poses.Array(first)[r], poses.Array(first + 1)[r], poses.Array(first + 2)[r]},
            poses.Array(first + 3)[r]};
  }
  float Velocity(size_t k) const { return velocities.Array(k)[r]; }
};

Vec3 WorldAxis(const RobotState& state, const KinematicJoint& joint, size_t link) {
  return Rotate(state.Orientation(link), {{joint.axis[0], joint.axis[1], joint.axis[2]}});
}

}  // namespace

void AddGroundContactForces(const KinematicTree& tree, const ContactPoint* contacts,
                            size_t contact_count, const GroundContact& ground,
                            const ConstLanesView& poses, const ConstLanesView& velocities,
                            const LanesView& forces, const LanesView& normal_forces) {
  const size_t joint_begin = tree.floating_base ? 6 : 0;
  const float slip_squared = ground.slip_velocity * ground.slip_velocity;
  for (size_t r = 0; r < forces.count; ++r) {
    const RobotState state{poses, velocities, r};
    for (size_t n = 0; n < contact_count; ++n) {
      const uint32_t link = contacts[n].link;
      Vec3 c = state.Position(link);
      c.v[2] = c.v[2] - contacts[n].radius;
      const float depth = ground.height - c.v[2];
      if (!(depth > 0.0f)) {
        normal_forces.Array(n)[r] = 0.0f;
        continue;
      }
      Vec3 v{{0.0f, 0.0f, 0.0f}};
      for (size_t l = link; l != 0; l = tree.joints[l - 1].parent_link) {
        const KinematicJoint& joint = tree.joints[l - 1];
        if (joint.motion == JointMotion::kFixed) continue;
        Vec3 z = WorldAxis(state, joint, l);
        const float rate =
            state.Velocity(joint_begin + static_cast<size_t>(joint.q_index)) * joint.multiplier;
        if (joint.motion == JointMotion::kRevolute) z = Cross(z, Sub(c, state.Position(l)));
        for (int k = 0; k < 3; ++k) v.v[k] = v.v[k] + z.v[k] * rate;
      }
      const Vec3 base = state.Position(0);
      const Quat base_rotation = state.Orientation(0);
      if (tree.floating_base) {
        const Vec3 u =
            Rotate(base_rotation, {{state.Velocity(0), state.Velocity(1), state.Velocity(2)}});
        const Vec3 w =
            Rotate(base_rotation, {{state.Velocity(3), state.Velocity(4), state.Velocity(5)}});
        const Vec3 t = Cross(w, Sub(c, base));
        for (int k = 0; k < 3; ++k) v.v[k] = v.v[k] + (u.v[k] + t.v[k]);
      }
      const float spring = ground.stiffness * depth - ground.damping * v.v[2];
      const float fz = spring > 0.0f ? spring : 0.0f;
      const float speed = std::sqrt((v.v[0] * v.v[0] + v.v[1] * v.v[1]) + slip_squared);
      const float scale = (ground.friction * fz) / speed;
      const Vec3 f{{-(scale * v.v[0]), -(scale * v.v[1]), fz}};
      normal_forces.Array(n)[r] = fz;
      for (size_t l = link; l != 0; l = tree.joints[l - 1].parent_link) {
        const KinematicJoint& joint = tree.joints[l - 1];
        if (joint.motion == JointMotion::kFixed) continue;
        const Vec3 z = WorldAxis(state, joint, l);
        const Vec3 g =
            joint.motion == JointMotion::kRevolute ? Cross(Sub(c, state.Position(l)), f) : f;
        float& out = forces.Array(joint_begin + static_cast<size_t>(joint.q_index))[r];
        out = out + Dot3(z, g) * joint.multiplier;
      }
      if (tree.floating_base) {
        const Quat conjugate{{-base_rotation.v[0], -base_rotation.v[1], -base_rotation.v[2]},
                             base_rotation.w};
        const Vec3 u = Rotate(conjugate, f);
        const Vec3 m = Rotate(conjugate, Cross(Sub(c, base), f));
        for (int k = 0; k < 3; ++k) {
          forces.Array(k)[r] = forces.Array(k)[r] + u.v[k];
          forces.Array(3 + k)[r] = forces.Array(3 + k)[r] + m.v[k];
        }
      }
    }
  }
}

}  // namespace swarm::reference
