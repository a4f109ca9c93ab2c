// Per-target code of the ground-contact kernel (swarm/kernels/robots/robot_contact.h). Each robot's
// result is the fixed sequence of operations kernels/robots/robot_contact_reference.cc spells out
// in scalar code. The loop runs over whole vectors of robots and, within a vector, contact by
// contact, each walking the joints from its link to the root twice: once for the contact point's
// velocity, once to apply the force.

#if defined(SWARM_KERNELS_ROBOT_CONTACT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SWARM_KERNELS_ROBOT_CONTACT_INL_H_
#undef SWARM_KERNELS_ROBOT_CONTACT_INL_H_
#else
#define SWARM_KERNELS_ROBOT_CONTACT_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/base/loop-inl.h"
#include "kernels/geometry/quaternion_math-inl.h"
#include "swarm/kernels/robots/robot_contact.h"

HWY_BEFORE_NAMESPACE();
namespace swarm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ((ax bx + ay by) + az bz).
template <class V>
HWY_INLINE V Dot3(V ax, V ay, V az, V bx, V by, V bz) {
  return hn::Add(hn::Add(hn::Mul(ax, bx), hn::Mul(ay, by)), hn::Mul(az, bz));
}

// The lanes i.. of link `link`'s pose: position and orientation.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void LoadLinkPose(D d, const ConstLanesView& poses, size_t link, size_t i, V& px, V& py,
                             V& pz, V& qx, V& qy, V& qz, V& qw) {
  const size_t first = kPoseArrays * link;
  px = hn::LoadU(d, poses.Array(first) + i);
  py = hn::LoadU(d, poses.Array(first + 1) + i);
  pz = hn::LoadU(d, poses.Array(first + 2) + i);
  qx = hn::LoadU(d, poses.Array(first + 3) + i);
  qy = hn::LoadU(d, poses.Array(first + 4) + i);
  qz = hn::LoadU(d, poses.Array(first + 5) + i);
  qw = hn::LoadU(d, poses.Array(first + 6) + i);
}

// The world axis of the joint whose child is link `link` (the child frame's rotation applied to
// the joint's axis), and the child link's origin, a point on that axis.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void JointWorldAxis(D d, const ConstLanesView& poses, const KinematicJoint& joint,
                               size_t link, size_t i, V& zx, V& zy, V& zz, V& ox, V& oy, V& oz) {
  V qx, qy, qz, qw;
  LoadLinkPose(d, poses, link, i, ox, oy, oz, qx, qy, qz, qw);
  Rotate(qx, qy, qz, qw, hn::Set(d, joint.axis[0]), hn::Set(d, joint.axis[1]),
         hn::Set(d, joint.axis[2]), zx, zy, zz);
}

inline void AddGroundContactForcesImpl(const KinematicTree& tree, const ContactPoint* contacts,
                                       size_t contact_count, const GroundContact& ground,
                                       const ConstLanesView& poses,
                                       const ConstLanesView& velocities, const LanesView& forces,
                                       const LanesView& normal_forces) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const size_t joint_begin = tree.floating_base ? 6 : 0;
  const V zero = hn::Zero(d);
  const V height = hn::Set(d, ground.height), stiffness = hn::Set(d, ground.stiffness);
  const V damping = hn::Set(d, ground.damping), friction = hn::Set(d, ground.friction);
  const V slip_squared = hn::Set(d, ground.slip_velocity * ground.slip_velocity);
  ForEachVector(d, forces.count, [&](size_t i, auto store) HWY_ATTR {
    const auto velocity = [&](size_t array) { return hn::LoadU(d, velocities.Array(array) + i); };
    for (size_t n = 0; n < contact_count; ++n) {
      const uint32_t link = contacts[n].link;
      const size_t first = kPoseArrays * link;
      const V cx = hn::LoadU(d, poses.Array(first) + i);
      const V cy = hn::LoadU(d, poses.Array(first + 1) + i);
      const V cz =
          hn::Sub(hn::LoadU(d, poses.Array(first + 2) + i), hn::Set(d, contacts[n].radius));
      const V depth = hn::Sub(height, cz);
      const auto touching = hn::Gt(depth, zero);
      float* normal_out = normal_forces.Array(n) + i;
      if (hn::AllFalse(d, touching)) {
        store(zero, d, normal_out);
        continue;
      }
      // The velocity of the material point at c: the joints from the link to the root, then the
      // floating base.
      V vx = zero, vy = zero, vz = zero;
      for (size_t l = link; l != 0; l = tree.joints[l - 1].parent_link) {
        const KinematicJoint& joint = tree.joints[l - 1];
        if (joint.motion == JointMotion::kFixed) continue;
        V zx, zy, zz, ox, oy, oz;
        JointWorldAxis(d, poses, joint, l, i, zx, zy, zz, ox, oy, oz);
        const V rate = hn::Mul(velocity(joint_begin + static_cast<size_t>(joint.q_index)),
                               hn::Set(d, joint.multiplier));
        if (joint.motion == JointMotion::kRevolute) {
          V tx, ty, tz;
          Cross(zx, zy, zz, hn::Sub(cx, ox), hn::Sub(cy, oy), hn::Sub(cz, oz), tx, ty, tz);
          zx = tx;
          zy = ty;
          zz = tz;
        }
        vx = hn::Add(vx, hn::Mul(zx, rate));
        vy = hn::Add(vy, hn::Mul(zy, rate));
        vz = hn::Add(vz, hn::Mul(zz, rate));
      }
      V bx = zero, by = zero, bz = zero, bqx = zero, bqy = zero, bqz = zero, bqw = zero;
      if (tree.floating_base) {
        LoadLinkPose(d, poses, 0, i, bx, by, bz, bqx, bqy, bqz, bqw);
        V ux, uy, uz, wx, wy, wz, tx, ty, tz;
        Rotate(bqx, bqy, bqz, bqw, velocity(0), velocity(1), velocity(2), ux, uy, uz);
        Rotate(bqx, bqy, bqz, bqw, velocity(3), velocity(4), velocity(5), wx, wy, wz);
        Cross(wx, wy, wz, hn::Sub(cx, bx), hn::Sub(cy, by), hn::Sub(cz, bz), tx, ty, tz);
        vx = hn::Add(vx, hn::Add(ux, tx));
        vy = hn::Add(vy, hn::Add(uy, ty));
        vz = hn::Add(vz, hn::Add(uz, tz));
      }
      // The force: a spring-damper that only pushes, and regularised Coulomb friction.
      const V spring = hn::Sub(hn::Mul(stiffness, depth), hn::Mul(damping, vz));
      const V fz = hn::IfThenElseZero(hn::And(touching, hn::Gt(spring, zero)), spring);
      const V speed = hn::Sqrt(hn::Add(hn::Add(hn::Mul(vx, vx), hn::Mul(vy, vy)), slip_squared));
      const V scale = hn::Div(hn::Mul(friction, fz), speed);
      const V fx = hn::Neg(hn::Mul(scale, vx)), fy = hn::Neg(hn::Mul(scale, vy));
      store(fz, d, normal_out);
      // J^T f into the forces, only where touching (elsewhere they keep their bits).
      const auto add = [&](size_t array, V value) {
        float* io = forces.Array(array) + i;
        const V old = hn::LoadU(d, io);
        store(hn::IfThenElse(touching, hn::Add(old, value), old), d, io);
      };
      for (size_t l = link; l != 0; l = tree.joints[l - 1].parent_link) {
        const KinematicJoint& joint = tree.joints[l - 1];
        if (joint.motion == JointMotion::kFixed) continue;
        V zx, zy, zz, ox, oy, oz;
        JointWorldAxis(d, poses, joint, l, i, zx, zy, zz, ox, oy, oz);
        V gx = fx, gy = fy, gz = fz;
        if (joint.motion == JointMotion::kRevolute) {
          Cross(hn::Sub(cx, ox), hn::Sub(cy, oy), hn::Sub(cz, oz), fx, fy, fz, gx, gy, gz);
        }
        add(joint_begin + static_cast<size_t>(joint.q_index),
            hn::Mul(Dot3(zx, zy, zz, gx, gy, gz), hn::Set(d, joint.multiplier)));
      }
      if (tree.floating_base) {
        // R^T f and R^T ((c - o_base) x f): rotations by the conjugate.
        const V cqx = hn::Neg(bqx), cqy = hn::Neg(bqy), cqz = hn::Neg(bqz);
        V ux, uy, uz, mx, my, mz;
        Rotate(cqx, cqy, cqz, bqw, fx, fy, fz, ux, uy, uz);
        Cross(hn::Sub(cx, bx), hn::Sub(cy, by), hn::Sub(cz, bz), fx, fy, fz, mx, my, mz);
        Rotate(cqx, cqy, cqz, bqw, mx, my, mz, mx, my, mz);
        add(0, ux);
        add(1, uy);
        add(2, uz);
        add(3, mx);
        add(4, my);
        add(5, mz);
      }
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOT_CONTACT_INL_H_
