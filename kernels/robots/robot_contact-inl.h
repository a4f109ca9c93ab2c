// Per-target code of the ground-contact kernels (swarm/kernels/robots/robot_contact.h). Each
// robot's result is the fixed sequence of operations kernels/robots/robot_contact_reference.cc
// spells out in scalar code. The loops run over whole vectors of robots and, within a vector,
// contact by contact, each walking the joints from its link to the root: for the contact point's
// velocity (and, after forward dynamics, its acceleration) and to apply the force.

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
#include "kernels/robots/soft_constraint-inl.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
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

// J_c x: the velocity (or, given accelerations, the acceleration's linear part) of the material
// point c of link `link` for the velocity-like arrays `x`: the joints from the link to the root,
// then the floating base.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void PointMotion(D d, const KinematicTree& tree, const ConstLanesView& poses,
                            size_t link, V cx, V cy, V cz, const ConstLanesView& x, size_t i,
                            V& vx, V& vy, V& vz) {
  const size_t joint_begin = tree.floating_base ? 6 : 0;
  const auto rate_of = [&](size_t array) HWY_ATTR { return hn::LoadU(d, x.Array(array) + i); };
  vx = hn::Zero(d), vy = hn::Zero(d), vz = hn::Zero(d);
  for (size_t l = link; l != 0; l = tree.joints[l - 1].parent_link) {
    const KinematicJoint& joint = tree.joints[l - 1];
    if (joint.motion == JointMotion::kFixed) continue;
    V zx, zy, zz, ox, oy, oz;
    JointWorldAxis(d, poses, joint, l, i, zx, zy, zz, ox, oy, oz);
    const V rate = hn::Mul(rate_of(joint_begin + static_cast<size_t>(joint.q_index)),
                           hn::Set(d, joint.multiplier));
    if (joint.motion == JointMotion::kRevolute) {
      V tx, ty, tz;
      Cross(zx, zy, zz, hn::Sub(cx, ox), hn::Sub(cy, oy), hn::Sub(cz, oz), tx, ty, tz);
      zx = tx, zy = ty, zz = tz;
    }
    vx = hn::Add(vx, hn::Mul(zx, rate));
    vy = hn::Add(vy, hn::Mul(zy, rate));
    vz = hn::Add(vz, hn::Mul(zz, rate));
  }
  if (tree.floating_base) {
    V bx, by, bz, bqx, bqy, bqz, bqw;
    LoadLinkPose(d, poses, 0, i, bx, by, bz, bqx, bqy, bqz, bqw);
    V ux, uy, uz, wx, wy, wz, tx, ty, tz;
    Rotate(bqx, bqy, bqz, bqw, rate_of(0), rate_of(1), rate_of(2), ux, uy, uz);
    Rotate(bqx, bqy, bqz, bqw, rate_of(3), rate_of(4), rate_of(5), wx, wy, wz);
    Cross(wx, wy, wz, hn::Sub(cx, bx), hn::Sub(cy, by), hn::Sub(cz, bz), tx, ty, tz);
    vx = hn::Add(vx, hn::Add(ux, tx));
    vy = hn::Add(vy, hn::Add(uy, ty));
    vz = hn::Add(vz, hn::Add(uz, tz));
  }
}

// forces += J_c^T f where `apply` (elsewhere forces keep their bits), stored with `store`.
template <class D, class M, class Store, class V = hn::Vec<D>>
HWY_INLINE void ApplyPointForce(D d, const KinematicTree& tree, const ConstLanesView& poses,
                                size_t link, V cx, V cy, V cz, V fx, V fy, V fz, M apply,
                                const LanesView& forces, size_t i, Store store) {
  const size_t joint_begin = tree.floating_base ? 6 : 0;
  const auto add = [&](size_t array, V value) HWY_ATTR {
    float* io = forces.Array(array) + i;
    const V old = hn::LoadU(d, io);
    store(hn::IfThenElse(apply, hn::Add(old, value), old), d, io);
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
    V bx, by, bz, bqx, bqy, bqz, bqw;
    LoadLinkPose(d, poses, 0, i, bx, by, bz, bqx, bqy, bqz, bqw);
    const V cqx = hn::Neg(bqx), cqy = hn::Neg(bqy), cqz = hn::Neg(bqz);
    V ux, uy, uz, mx, my, mz;
    Rotate(cqx, cqy, cqz, bqw, fx, fy, fz, ux, uy, uz);
    Cross(hn::Sub(cx, bx), hn::Sub(cy, by), hn::Sub(cz, bz), fx, fy, fz, mx, my, mz);
    Rotate(cqx, cqy, cqz, bqw, mx, my, mz, mx, my, mz);
    add(0, ux), add(1, uy), add(2, uz);
    add(3, mx), add(4, my), add(5, mz);
  }
}

// One contact's rows at the step's start, for lanes i..: the point, its velocity, whether the
// normal row is active and whether friction slides, the rows' coefficients and the explicit
// forces f_e (zero where inactive), and the masses the dynamics see.
template <class D, class M = hn::Mask<D>, class V = hn::Vec<D>>
struct ContactRows {
  V cx, cy, cz;             // the contact point (world)
  V vx, vy, vz;             // its velocity
  V qx, qy, qz, qw;         // the link's orientation
  M active, sliding;        // sliding: friction slides (else sticks)
  SoftRow<V> row;           // the normal's coefficients (the sticking tangents share them)
  V fx, fy, fz;             // f_e
  V ux, uy;                 // the anchor
  V normal_mass, tangent_mass;
};

template <class D, class V = hn::Vec<D>>
HWY_INLINE ContactRows<D> ContactRowsAt(D d, const KinematicTree& tree, const ContactPoint& contact,
                                        size_t n, const GroundContact& ground,
                                        const SoftConstraintStep& normal,
                                        const ConstLanesView& poses,
                                        const ConstLanesView& velocities,
                                        const GroundContactState& state, size_t i) {
  const V zero = hn::Zero(d);
  ContactRows<D> c;
  V px, py, pz;
  LoadLinkPose(d, poses, contact.link, i, px, py, pz, c.qx, c.qy, c.qz, c.qw);
  c.cx = px, c.cy = py, c.cz = hn::Sub(pz, hn::Set(d, contact.radius));
  const V r = hn::Sub(c.cz, hn::Set(d, ground.height));
  PointMotion(d, tree, poses, contact.link, c.cx, c.cy, c.cz, velocities, i, c.vx, c.vy, c.vz);
  const V previous_normal = hn::LoadU(d, state.normal_forces.Array(n) + i);
  c.active =
      hn::And(hn::Lt(r, zero), hn::Or(hn::Le(c.vz, zero), hn::Gt(previous_normal, zero)));
  c.sliding = hn::Gt(hn::LoadU(d, state.sliding.Array(n) + i), hn::Set(d, 0.5f));
  c.row = SoftRowAt(d, normal, r, hn::Set(d, contact.inverse_inertia0));
  c.ux = hn::LoadU(d, state.anchors.Array(2 * n) + i);
  c.uy = hn::LoadU(d, state.anchors.Array(2 * n + 1) + i);
  // Sliding: -mu max(f_n, 0) v_t / |v_t| (zero when v_t = 0).
  const V speed = hn::Sqrt(hn::Add(hn::Mul(c.vx, c.vx), hn::Mul(c.vy, c.vy)));
  const auto has_speed = hn::Gt(speed, zero);
  const V slide_scale = hn::IfThenElseZero(
      has_speed, hn::Div(hn::Mul(hn::Set(d, ground.friction), hn::Max(previous_normal, zero)),
                         hn::IfThenElse(has_speed, speed, hn::Set(d, 1.0f))));
  const V slide_x = hn::Neg(hn::Mul(slide_scale, c.vx));
  const V slide_y = hn::Neg(hn::Mul(slide_scale, c.vy));
  const V stick_x = SoftRowForce(c.row, c.vx, c.ux);
  const V stick_y = SoftRowForce(c.row, c.vy, c.uy);
  c.fx = hn::IfThenElseZero(c.active, hn::IfThenElse(c.sliding, slide_x, stick_x));
  c.fy = hn::IfThenElseZero(c.active, hn::IfThenElse(c.sliding, slide_y, stick_y));
  c.fz = hn::IfThenElseZero(c.active, SoftRowForce(c.row, c.vz, r));
  c.normal_mass = hn::IfThenElseZero(c.active, c.row.mass);
  c.tangent_mass = hn::IfThenElseZero(hn::AndNot(c.sliding, c.active), c.row.mass);
  return c;
}

inline void GroundContactTermsImpl(const KinematicTree& tree, const ContactPoint* contacts,
                                   size_t contact_count, const GroundContact& ground,
                                   const SoftConstraintStep& normal, const ConstLanesView& poses,
                                   const ConstLanesView& velocities,
                                   const GroundContactState& state, const LanesView& forces,
                                   const LanesView& added_points) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, forces.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t n = 0; n < contact_count; ++n) {
      const ContactPoint& contact = contacts[n];
      const auto c =
          ContactRowsAt(d, tree, contact, n, ground, normal, poses, velocities, state, i);
      ApplyPointForce(d, tree, poses, contact.link, c.cx, c.cy, c.cz, c.fx, c.fy, c.fz, c.active,
                      forces, i, store);
      // The plane's normal in the body frame: E_lb (R_l^T z), and the point r_lb - radius n_b.
      V lx, ly, lz;
      Rotate(hn::Neg(c.qx), hn::Neg(c.qy), hn::Neg(c.qz), c.qw, hn::Zero(d), hn::Zero(d),
             hn::Set(d, 1.0f), lx, ly, lz);
      const float* e = contact.link_rotation;
      const V radius = hn::Set(d, contact.radius);
      for (size_t k = 0; k < 3; ++k) {
        const V n_k = hn::Add(hn::Add(hn::Mul(hn::Set(d, e[3 * k]), lx),
                                      hn::Mul(hn::Set(d, e[3 * k + 1]), ly)),
                              hn::Mul(hn::Set(d, e[3 * k + 2]), lz));
        store(n_k, d, added_points.Array(kAddedPointArrays * n + 3 + k) + i);
        store(hn::Sub(hn::Set(d, contact.link_origin[k]), hn::Mul(radius, n_k)), d,
              added_points.Array(kAddedPointArrays * n + k) + i);
      }
      store(c.normal_mass, d, added_points.Array(kAddedPointArrays * n + 6) + i);
      store(c.tangent_mass, d, added_points.Array(kAddedPointArrays * n + 7) + i);
    }
  });
}

inline void GroundContactForcesImpl(const KinematicTree& tree, const ContactPoint* contacts,
                                    size_t contact_count, const GroundContact& ground,
                                    const SoftConstraintStep& normal, const ConstLanesView& poses,
                                    const ConstLanesView& velocities,
                                    const ConstLanesView& accelerations,
                                    const GroundContactState& state) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V zero = hn::Zero(d), dt = hn::Set(d, normal.dt), mu = hn::Set(d, ground.friction);
  ForEachVector(d, state.normal_forces.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t n = 0; n < contact_count; ++n) {
      const ContactPoint& contact = contacts[n];
      const auto c =
          ContactRowsAt(d, tree, contact, n, ground, normal, poses, velocities, state, i);
      V ax, ay, az;
      PointMotion(d, tree, poses, contact.link, c.cx, c.cy, c.cz, accelerations, i, ax, ay, az);
      const V fz = hn::Sub(c.fz, hn::Mul(c.normal_mass, az));
      const V fx = hn::Sub(c.fx, hn::Mul(c.tangent_mass, ax));
      const V fy = hn::Sub(c.fy, hn::Mul(c.tangent_mass, ay));
      // The tangential velocity at the step's end.
      const V wx = hn::Add(c.vx, hn::Mul(dt, ax)), wy = hn::Add(c.vy, hn::Mul(dt, ay));
      // Sticking: slides next when the force left the cone, else the anchor moves by dt v_t'.
      const V limit = hn::Mul(mu, hn::Max(fz, zero));
      const auto outside = hn::Gt(hn::Add(hn::Mul(fx, fx), hn::Mul(fy, fy)), hn::Mul(limit, limit));
      const V stick_ux = hn::IfThenElseZero(hn::Not(outside), hn::Add(c.ux, hn::Mul(dt, wx)));
      const V stick_uy = hn::IfThenElseZero(hn::Not(outside), hn::Add(c.uy, hn::Mul(dt, wy)));
      // Sliding: sticks next when v_t' no longer points along v_t, anchored to carry f_t.
      const auto reversed = hn::Le(Dot3(wx, wy, zero, c.vx, c.vy, zero), zero);
      const V slide_ux = hn::IfThenElseZero(reversed, hn::Neg(hn::Div(fx, c.row.stiffness)));
      const V slide_uy = hn::IfThenElseZero(reversed, hn::Neg(hn::Div(fy, c.row.stiffness)));
      const auto slides_next = hn::And(
          c.active, hn::Or(hn::And(c.sliding, hn::Not(reversed)), hn::AndNot(c.sliding, outside)));
      store(hn::IfThenElseZero(c.active, fz), d, state.normal_forces.Array(n) + i);
      store(hn::IfThenElseZero(c.active, fx), d, state.friction_forces.Array(2 * n) + i);
      store(hn::IfThenElseZero(c.active, fy), d, state.friction_forces.Array(2 * n + 1) + i);
      const V ux = hn::IfThenElse(c.sliding, slide_ux, stick_ux);
      const V uy = hn::IfThenElse(c.sliding, slide_uy, stick_uy);
      store(hn::IfThenElseZero(c.active, ux), d, state.anchors.Array(2 * n) + i);
      store(hn::IfThenElseZero(c.active, uy), d, state.anchors.Array(2 * n + 1) + i);
      store(hn::IfThenElseZero(slides_next, hn::Set(d, 1.0f)), d, state.sliding.Array(n) + i);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOT_CONTACT_INL_H_
