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

// max(x, 0) by compare and select: hn::Max follows each ISA's NaN rule (x86 returns the second
// operand, Arm the NaN), so a NaN force would give different modes on different targets. +0 for
// -0 and NaN.
template <class V>
HWY_INLINE V PositivePart(V x) {
  return hn::IfThenElseZero(hn::Gt(x, hn::Zero(hn::DFromV<V>())), x);
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
                            size_t link, V cx, V cy, V cz, const ConstLanesView& x, size_t i, V& vx,
                            V& vy, V& vz) {
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

// One contact's rows at the step's start, for lanes i.. (through output parameters: SVE vectors
// and masks cannot be members of a struct): the contact point c (world), its velocity v, the
// signed distance r, whether the normal row is active and whether friction slides this step (else
// sticks), the anchor u, the normal row's virtual mass (the sticking tangents share it) and the
// explicit forces f_e (zero where inactive).
template <class D, class M = hn::Mask<D>, class V = hn::Vec<D>>
HWY_INLINE void ContactRowsAt(D d, const KinematicTree& tree, const ContactPoint& contact, size_t n,
                              const GroundContact& ground, const SoftConstraintStep& normal,
                              const ConstLanesView& poses, const ConstLanesView& velocities,
                              const GroundContactState& state, const GroundContactStep& step,
                              size_t i, V& cx, V& cy, V& cz, V& vx, V& vy, V& vz, V& r, M& active,
                              M& sliding, V& ux, V& uy, V& mass, V& fx, V& fy, V& fz) {
  const V zero = hn::Zero(d);
  V qx, qy, qz, qw;
  LoadLinkPose(d, poses, contact.link, i, cx, cy, cz, qx, qy, qz, qw);
  cz = hn::Sub(cz, hn::Set(d, contact.radius));
  r = hn::Sub(cz, hn::Set(d, ground.height));
  PointMotion(d, tree, poses, contact.link, cx, cy, cz, velocities, i, vx, vy, vz);
  const V flag = hn::LoadU(d, step.flags.Array(n) + i);
  active = RowActive(d, flag, hn::Lt(r, zero));
  // The step's slip flag: kSlipping slides with slip_forces, kSticking sticks, 0 keeps the mode
  // the contact entered the step with.
  const V slip = hn::LoadU(d, step.slipping.Array(n) + i);
  const auto slipping = hn::Gt(slip, zero);
  const auto entered_sliding = hn::Gt(hn::LoadU(d, state.sliding.Array(n) + i), hn::Set(d, 0.5f));
  sliding = hn::Or(hn::And(entered_sliding, hn::Eq(slip, zero)), slipping);
  V stiffness, damping, reach;
  SoftRowAt(d, normal, r, hn::Set(d, contact.inverse_inertia0), stiffness, damping, mass, reach);
  ux = hn::LoadU(d, state.anchors.Array(2 * n) + i);
  uy = hn::LoadU(d, state.anchors.Array(2 * n + 1) + i);
  // Sliding: -mu max(f_n, 0) along -v_t (the previous step's normal force; the previous friction
  // force's direction when v_t = 0), or the cone's projection of this step's sticking force when a
  // solve found it outside the cone (slip_forces).
  const V previous_normal = PositivePart(hn::LoadU(d, state.normal_forces.Array(n) + i));
  const V gx = hn::LoadU(d, state.friction_forces.Array(2 * n) + i);
  const V gy = hn::LoadU(d, state.friction_forces.Array(2 * n + 1) + i);
  const V speed = hn::Sqrt(hn::Add(hn::Mul(vx, vx), hn::Mul(vy, vy)));
  const V previous_size = hn::Sqrt(hn::Add(hn::Mul(gx, gx), hn::Mul(gy, gy)));
  const auto moving = hn::Gt(speed, zero);
  const V dx = hn::IfThenElse(moving, hn::Neg(vx), gx);
  const V dy = hn::IfThenElse(moving, hn::Neg(vy), gy);
  const V size = hn::IfThenElse(moving, speed, previous_size);
  const auto has_direction = hn::Gt(size, zero);
  const V scale = hn::IfThenElseZero(
      has_direction, hn::Div(hn::Mul(hn::Set(d, ground.friction), previous_normal),
                             hn::IfThenElse(has_direction, size, hn::Set(d, 1.0f))));
  const V slide_x =
      hn::IfThenElse(slipping, hn::LoadU(d, step.slip_forces.Array(2 * n) + i), hn::Mul(scale, dx));
  const V slide_y = hn::IfThenElse(slipping, hn::LoadU(d, step.slip_forces.Array(2 * n + 1) + i),
                                   hn::Mul(scale, dy));
  const V stick_x = SoftRowForce(stiffness, damping, reach, vx, ux);
  const V stick_y = SoftRowForce(stiffness, damping, reach, vy, uy);
  fx = hn::IfThenElseZero(active, hn::IfThenElse(sliding, slide_x, stick_x));
  fy = hn::IfThenElseZero(active, hn::IfThenElse(sliding, slide_y, stick_y));
  // The normal: a point that arrives (above the plane one step ago: r - dt v_z >= 0) while moving
  // in stops within the step (damping m / dt: an inelastic impact); caught and stopped rows are
  // hard (soft_constraint.h); otherwise MuJoCo's soft row.
  const V inverse_dt = hn::Set(d, 1.0f / normal.dt);
  const auto arrives =
      hn::And(hn::Lt(vz, zero), hn::Ge(hn::Sub(r, hn::Mul(hn::Set(d, normal.dt), vz)), zero));
  const V impact_damping = hn::Mul(mass, inverse_dt);
  V push = hn::IfThenElse(arrives, SoftRowForce(stiffness, impact_damping, reach, vz, r),
                          SoftRowForce(stiffness, damping, reach, vz, r));
  push = hn::IfThenElse(hn::Gt(flag, zero), HardRowForce(d, normal, flag, mass, r, vz), push);
  fz = hn::IfThenElseZero(active, push);
}

// The masses the dynamics see: m_n = m where the contact is active, m_t = m where it also sticks.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void ContactMasses(D /*d*/, hn::Mask<D> active, hn::Mask<D> sliding, V mass,
                              V& normal_mass, V& tangent_mass) {
  normal_mass = hn::IfThenElseZero(active, mass);
  tangent_mass = hn::IfThenElseZero(hn::AndNot(sliding, active), mass);
}

// The forces of the rows after a solve gave the point's acceleration (ax, ay, az):
// f = f_e - m J_c qdd per row (sliding friction as given), into (fx, fy, fz), which hold f_e.
template <class V>
HWY_INLINE void ContactForces(V normal_mass, V tangent_mass, V ax, V ay, V az, V& fx, V& fy,
                              V& fz) {
  fz = hn::Sub(fz, hn::Mul(normal_mass, az));
  fx = hn::Sub(fx, hn::Mul(tangent_mass, ax));
  fy = hn::Sub(fy, hn::Mul(tangent_mass, ay));
}

// One contact after a solve gave the accelerations: ContactRowsAt's velocity v, distance r,
// activity, mode and anchor u, the point's acceleration a = J_c qdd + Jdot_c qd and the rows'
// forces f = f_e - m J_c qdd (ContactForces). Shared by the flag update and the final forces.
template <class D, class M = hn::Mask<D>, class V = hn::Vec<D>>
HWY_INLINE void SolvedContactAt(D d, const KinematicTree& tree, const ContactPoint& contact,
                                size_t n, const GroundContact& ground,
                                const SoftConstraintStep& normal, const ConstLanesView& poses,
                                const ConstLanesView& velocities,
                                const ConstLanesView& accelerations,
                                const GroundContactState& state, const GroundContactStep& step,
                                size_t i, V& vx, V& vy, V& vz, V& r, M& active, M& sliding, V& ux,
                                V& uy, V& fx, V& fy, V& fz, V& ax, V& ay, V& az) {
  V cx, cy, cz, mass;
  ContactRowsAt(d, tree, contact, n, ground, normal, poses, velocities, state, step, i, cx, cy, cz,
                vx, vy, vz, r, active, sliding, ux, uy, mass, fx, fy, fz);
  V normal_mass, tangent_mass;
  ContactMasses(d, active, sliding, mass, normal_mass, tangent_mass);
  PointMotion(d, tree, poses, contact.link, cx, cy, cz, accelerations, i, ax, ay, az);
  ContactForces(normal_mass, tangent_mass, ax, ay, az, fx, fy, fz);
}

inline void GroundContactTermsImpl(const KinematicTree& tree, const ContactPoint* contacts,
                                   size_t contact_count, const GroundContact& ground,
                                   const SoftConstraintStep& normal, const ConstLanesView& poses,
                                   const ConstLanesView& velocities,
                                   const GroundContactState& state, const GroundContactStep& step,
                                   const LanesView& forces, const LanesView& added_points) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, forces.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t n = 0; n < contact_count; ++n) {
      const ContactPoint& contact = contacts[n];
      V cx, cy, cz, vx, vy, vz, r, ux, uy, mass, fx, fy, fz;
      hn::Mask<decltype(d)> active, sliding;
      ContactRowsAt(d, tree, contact, n, ground, normal, poses, velocities, state, step, i, cx, cy,
                    cz, vx, vy, vz, r, active, sliding, ux, uy, mass, fx, fy, fz);
      // J_c^T f_e alone: forward dynamics' point inertias meet only the step's J_c qdd, not
      // gravity (robot_dynamics.h, AddedInertia), so f_e needs no correction for it.
      ApplyPointForce(d, tree, poses, contact.link, cx, cy, cz, fx, fy, fz, active, forces, i,
                      store);
      // The plane's normal in the body frame: E_lb (R_l^T z), and the point r_lb - radius n_b.
      V px, py, pz, qx, qy, qz, qw;
      LoadLinkPose(d, poses, contact.link, i, px, py, pz, qx, qy, qz, qw);
      V lx, ly, lz;
      Rotate(hn::Neg(qx), hn::Neg(qy), hn::Neg(qz), qw, hn::Zero(d), hn::Zero(d), hn::Set(d, 1.0f),
             lx, ly, lz);
      const float* e = contact.link_rotation;
      const V radius = hn::Set(d, contact.radius);
      for (size_t k = 0; k < 3; ++k) {
        const V n_k = hn::Add(
            hn::Add(hn::Mul(hn::Set(d, e[3 * k]), lx), hn::Mul(hn::Set(d, e[3 * k + 1]), ly)),
            hn::Mul(hn::Set(d, e[3 * k + 2]), lz));
        store(n_k, d, added_points.Array(kAddedPointArrays * n + 3 + k) + i);
        store(hn::Sub(hn::Set(d, contact.link_origin[k]), hn::Mul(radius, n_k)), d,
              added_points.Array(kAddedPointArrays * n + k) + i);
      }
      V normal_mass, tangent_mass;
      ContactMasses(d, active, sliding, mass, normal_mass, tangent_mass);
      store(normal_mass, d, added_points.Array(kAddedPointArrays * n + 6) + i);
      store(tangent_mass, d, added_points.Array(kAddedPointArrays * n + 7) + i);
    }
  });
}

inline bool UpdateContactFlagsImpl(const KinematicTree& tree, const ContactPoint* contacts,
                                   size_t contact_count, const GroundContact& ground,
                                   const SoftConstraintStep& normal, const ConstLanesView& poses,
                                   const ConstLanesView& velocities,
                                   const ConstLanesView& accelerations,
                                   const GroundContactState& state, bool may_release,
                                   const GroundContactStep& step, const LanesView& changed) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  bool any = false;
  ForEachVector(d, poses.count, [&](size_t i, auto store) HWY_ATTR {
    // Constants set in the loop body: captured from outside it, vector constants crashed GCC 12's
    // SLP vectoriser on SVE_256 (an internal compiler error) in these kernels.
    const V zero = hn::Zero(d), mu = hn::Set(d, ground.friction), dt = hn::Set(d, normal.dt);
    const size_t valid = poses.count - i < hn::Lanes(d) ? poses.count - i : hn::Lanes(d);
    for (size_t n = 0; n < contact_count; ++n) {
      V vx, vy, vz, r, ux, uy, fx, fy, fz, ax, ay, az;
      hn::Mask<decltype(d)> active, sliding;
      SolvedContactAt(d, tree, contacts[n], n, ground, normal, poses, velocities, accelerations,
                      state, step, i, vx, vy, vz, r, active, sliding, ux, uy, fx, fy, fz, ax, ay,
                      az);
      const V flag = hn::LoadU(d, step.flags.Array(n) + i);
      const V slip = hn::LoadU(d, step.slipping.Array(n) + i);
      // The normal row's flag (soft_constraint.h, one-sided rows): crosses when the point would
      // end the step below the plane and deeper than it started (min(r, 0) by compare and select).
      const V end = hn::Add(r, hn::Mul(dt, hn::Add(vz, hn::Mul(dt, az))));
      const auto crosses = hn::Lt(end, hn::IfThenElseZero(hn::Lt(r, zero), r));
      float* mark = changed.Array(0) + i;
      const V updated = NextRowFlag(d, flag, active, hn::Lt(fz, zero), crosses, may_release,
                                    hn::Ne(hn::LoadU(d, mark), zero));
      const auto released = hn::Lt(updated, zero);
      // Sticks: a contact sliding as it entered the step whose sliding force would turn its
      // tangential velocity around within the step (explicit Coulomb friction stronger than the
      // motion it brakes): it sticks for the step instead. Slips: a sticking contact whose
      // tangential force left the cone mu max(f_n, 0) (a pulling row that is stopped rather than
      // released holds no friction).
      const V limit = hn::Mul(mu, PositivePart(fz));
      const V size = hn::Sqrt(hn::Add(hn::Mul(fx, fx), hn::Mul(fy, fy)));
      const V wx = hn::Add(vx, hn::Mul(dt, ax)), wy = hn::Add(vy, hn::Mul(dt, ay));
      const auto reverses = hn::Lt(Dot3(wx, wy, zero, vx, vy, zero), zero);
      const auto active_kept = hn::AndNot(released, active);  // friction of rows still acting
      const auto sticks =
          hn::And(hn::And(active_kept, sliding), hn::And(hn::Eq(slip, zero), reverses));
      const auto slips = hn::AndNot(
          sliding, hn::And(active_kept, hn::And(hn::Le(slip, zero), hn::Gt(size, limit))));
      const auto moved =
          hn::And(hn::Or(hn::Ne(updated, flag), hn::Or(sticks, slips)), hn::FirstN(d, valid));
      any = any || !hn::AllFalse(d, moved);
      store(hn::IfThenElse(moved, hn::Set(d, 1.0f), hn::LoadU(d, mark)), d, mark);
      store(updated, d, step.flags.Array(n) + i);
      V slip_updated = hn::IfThenElse(sticks, hn::Set(d, kContactSticking), slip);
      slip_updated = hn::IfThenElse(slips, hn::Set(d, kContactSlipping), slip_updated);
      store(slip_updated, d, step.slipping.Array(n) + i);
      // The cone's projection of the sticking force: f_t mu f_n / |f_t|.
      const V scale = hn::Div(limit, hn::IfThenElse(slips, size, hn::Set(d, 1.0f)));
      float* slip_x = step.slip_forces.Array(2 * n) + i;
      float* slip_y = step.slip_forces.Array(2 * n + 1) + i;
      store(hn::IfThenElse(slips, hn::Mul(fx, scale), hn::LoadU(d, slip_x)), d, slip_x);
      store(hn::IfThenElse(slips, hn::Mul(fy, scale), hn::LoadU(d, slip_y)), d, slip_y);
    }
  });
  return any;
}

inline void GroundContactForcesImpl(const KinematicTree& tree, const ContactPoint* contacts,
                                    size_t contact_count, const GroundContact& ground,
                                    const SoftConstraintStep& normal, const ConstLanesView& poses,
                                    const ConstLanesView& velocities,
                                    const ConstLanesView& accelerations,
                                    const GroundContactStep& step,
                                    const GroundContactState& state) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, state.normal_forces.count, [&](size_t i, auto store) HWY_ATTR {
    // Set inside the loop body: captured from outside it, these vectors crashed GCC 12's SLP
    // vectoriser on SVE_256 (an internal compiler error).
    const V zero = hn::Zero(d), dt = hn::Set(d, normal.dt), mu = hn::Set(d, ground.friction);
    for (size_t n = 0; n < contact_count; ++n) {
      V vx, vy, vz, r, ux, uy, fx, fy, fz, ax, ay, az;
      hn::Mask<decltype(d)> active, sliding;
      SolvedContactAt(d, tree, contacts[n], n, ground, normal, poses, velocities, accelerations,
                      state, step, i, vx, vy, vz, r, active, sliding, ux, uy, fx, fy, fz, ax, ay,
                      az);
      // The tangential velocity at the step's end.
      const V wx = hn::Add(vx, hn::Mul(dt, ax)), wy = hn::Add(vy, hn::Mul(dt, ay));
      // Sticking: slides next when the force is outside the cone (the step's solves did not settle
      // it), else the anchor moves by dt v_t'.
      const V limit = hn::Mul(mu, PositivePart(fz));
      const auto outside = hn::Gt(hn::Add(hn::Mul(fx, fx), hn::Mul(fy, fy)), hn::Mul(limit, limit));
      const V stick_ux = hn::IfThenElseZero(hn::Not(outside), hn::Add(ux, hn::Mul(dt, wx)));
      const V stick_uy = hn::IfThenElseZero(hn::Not(outside), hn::Add(uy, hn::Mul(dt, wy)));
      // Sliding: sticks next when v_t' no longer runs against the friction force (it stopped or
      // turned), anchored where it is (u = 0: the spring holds no energy it was not given).
      const auto stops = hn::Ge(Dot3(wx, wy, zero, fx, fy, zero), zero);
      const auto slides_next =
          hn::And(active, hn::Or(hn::AndNot(stops, sliding), hn::AndNot(sliding, outside)));
      store(hn::IfThenElseZero(active, fz), d, state.normal_forces.Array(n) + i);
      store(hn::IfThenElseZero(active, fx), d, state.friction_forces.Array(2 * n) + i);
      store(hn::IfThenElseZero(active, fy), d, state.friction_forces.Array(2 * n + 1) + i);
      const V next_ux = hn::IfThenElseZero(hn::Not(sliding), stick_ux);
      const V next_uy = hn::IfThenElseZero(hn::Not(sliding), stick_uy);
      store(hn::IfThenElseZero(active, next_ux), d, state.anchors.Array(2 * n) + i);
      store(hn::IfThenElseZero(active, next_uy), d, state.anchors.Array(2 * n + 1) + i);
      store(hn::IfThenElseZero(slides_next, hn::Set(d, 1.0f)), d, state.sliding.Array(n) + i);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOT_CONTACT_INL_H_
