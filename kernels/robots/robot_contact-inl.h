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

// One contact's rows at the step's start, for lanes i..: the point, its velocity, whether the
// normal row is active and whether friction slides, the rows' coefficients and the explicit
// forces f_e (zero where inactive), and the masses the dynamics see.
template <class D, class M = hn::Mask<D>, class V = hn::Vec<D>>
struct ContactRows {
  V cx, cy, cz;       // the contact point (world)
  V vx, vy, vz;       // its velocity
  V qx, qy, qz, qw;   // the link's orientation
  M active, sliding;  // sliding: friction slides this step (else sticks)
  SoftRow<V> row;     // the normal's coefficients (the sticking tangents share them)
  V fx, fy, fz;       // f_e
  V ux, uy;           // the anchor
  V normal_mass, tangent_mass;
  V r;  // the signed distance
};

template <class D, class V = hn::Vec<D>>
HWY_INLINE ContactRows<D> ContactRowsAt(D d, const KinematicTree& tree, const ContactPoint& contact,
                                        size_t n, const GroundContact& ground,
                                        const SoftConstraintStep& normal,
                                        const ConstLanesView& poses,
                                        const ConstLanesView& velocities,
                                        const GroundContactState& state,
                                        const GroundContactStep& step, size_t i) {
  const V zero = hn::Zero(d);
  ContactRows<D> c;
  V px, py, pz;
  LoadLinkPose(d, poses, contact.link, i, px, py, pz, c.qx, c.qy, c.qz, c.qw);
  c.cx = px, c.cy = py, c.cz = hn::Sub(pz, hn::Set(d, contact.radius));
  const V r = hn::Sub(c.cz, hn::Set(d, ground.height));
  PointMotion(d, tree, poses, contact.link, c.cx, c.cy, c.cz, velocities, i, c.vx, c.vy, c.vz);
  const V flag = hn::LoadU(d, step.flags.Array(n) + i);
  c.active = RowActive(d, flag, hn::Lt(r, zero));
  c.r = r;
  // The step's slip flag: kSlipping slides with slip_forces, kSticking sticks, 0 keeps the mode
  // the contact entered the step with.
  const V slip = hn::LoadU(d, step.slipping.Array(n) + i);
  const auto slipping = hn::Gt(slip, zero);
  const auto entered_sliding = hn::Gt(hn::LoadU(d, state.sliding.Array(n) + i), hn::Set(d, 0.5f));
  c.sliding = hn::Or(hn::And(entered_sliding, hn::Eq(slip, zero)), slipping);
  c.row = SoftRowAt(d, normal, r, hn::Set(d, contact.inverse_inertia0));
  c.ux = hn::LoadU(d, state.anchors.Array(2 * n) + i);
  c.uy = hn::LoadU(d, state.anchors.Array(2 * n + 1) + i);
  // Sliding: -mu max(f_n, 0) along -v_t (the previous step's normal force; the previous friction
  // force's direction when v_t = 0), or the cone's projection of this step's sticking force when a
  // solve found it outside the cone (slip_forces).
  const V previous_normal = hn::Max(hn::LoadU(d, state.normal_forces.Array(n) + i), zero);
  const V gx = hn::LoadU(d, state.friction_forces.Array(2 * n) + i);
  const V gy = hn::LoadU(d, state.friction_forces.Array(2 * n + 1) + i);
  const V speed = hn::Sqrt(hn::Add(hn::Mul(c.vx, c.vx), hn::Mul(c.vy, c.vy)));
  const V previous_size = hn::Sqrt(hn::Add(hn::Mul(gx, gx), hn::Mul(gy, gy)));
  const auto moving = hn::Gt(speed, zero);
  const V dx = hn::IfThenElse(moving, hn::Neg(c.vx), gx);
  const V dy = hn::IfThenElse(moving, hn::Neg(c.vy), gy);
  const V size = hn::IfThenElse(moving, speed, previous_size);
  const auto has_direction = hn::Gt(size, zero);
  const V scale = hn::IfThenElseZero(
      has_direction, hn::Div(hn::Mul(hn::Set(d, ground.friction), previous_normal),
                             hn::IfThenElse(has_direction, size, hn::Set(d, 1.0f))));
  const V slide_x =
      hn::IfThenElse(slipping, hn::LoadU(d, step.slip_forces.Array(2 * n) + i), hn::Mul(scale, dx));
  const V slide_y = hn::IfThenElse(slipping, hn::LoadU(d, step.slip_forces.Array(2 * n + 1) + i),
                                   hn::Mul(scale, dy));
  const V stick_x = SoftRowForce(c.row, c.vx, c.ux);
  const V stick_y = SoftRowForce(c.row, c.vy, c.uy);
  c.fx = hn::IfThenElseZero(c.active, hn::IfThenElse(c.sliding, slide_x, stick_x));
  c.fy = hn::IfThenElseZero(c.active, hn::IfThenElse(c.sliding, slide_y, stick_y));
  // The normal: a point that arrives (above the plane one step ago: r - dt v_z >= 0) while moving
  // in stops within the step (damping m / dt: an inelastic impact); caught and stopped rows are
  // hard (soft_constraint.h); otherwise MuJoCo's soft row.
  const V inverse_dt = hn::Set(d, 1.0f / normal.dt);
  const auto arrives =
      hn::And(hn::Lt(c.vz, zero), hn::Ge(hn::Sub(r, hn::Mul(hn::Set(d, normal.dt), c.vz)), zero));
  const SoftRow<V> impact{c.row.stiffness, hn::Mul(c.row.mass, inverse_dt), c.row.mass,
                          c.row.reach};
  V fz = hn::IfThenElse(arrives, SoftRowForce(impact, c.vz, r), SoftRowForce(c.row, c.vz, r));
  fz = hn::IfThenElse(hn::Gt(flag, zero), HardRowForce(d, normal, flag, c.row.mass, r, c.vz), fz);
  c.fz = hn::IfThenElseZero(c.active, fz);
  c.normal_mass = hn::IfThenElseZero(c.active, c.row.mass);
  c.tangent_mass = hn::IfThenElseZero(hn::AndNot(c.sliding, c.active), c.row.mass);
  return c;
}

// The forces of the rows after a solve gave the point's acceleration (ax, ay, az):
// f = f_e - m J_c qdd per row (sliding friction as given).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void ContactForces(const ContactRows<D>& c, V ax, V ay, V az, V& fx, V& fy, V& fz) {
  fz = hn::Sub(c.fz, hn::Mul(c.normal_mass, az));
  fx = hn::Sub(c.fx, hn::Mul(c.tangent_mass, ax));
  fy = hn::Sub(c.fy, hn::Mul(c.tangent_mass, ay));
}

inline void GroundContactTermsImpl(const KinematicTree& tree, const ContactPoint* contacts,
                                   size_t contact_count, const GroundContact& ground,
                                   const SoftConstraintStep& normal, const float* gravity,
                                   const ConstLanesView& poses, const ConstLanesView& velocities,
                                   const GroundContactState& state, const GroundContactStep& step,
                                   const LanesView& forces, const LanesView& added_points) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V gx = hn::Set(d, gravity[0]), gy = hn::Set(d, gravity[1]), gz = hn::Set(d, gravity[2]);
  ForEachVector(d, forces.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t n = 0; n < contact_count; ++n) {
      const ContactPoint& contact = contacts[n];
      const auto c =
          ContactRowsAt(d, tree, contact, n, ground, normal, poses, velocities, state, step, i);
      // Forward dynamics treats gravity as an upward acceleration of the root, so the point
      // inertias see a + g instead of a: -C g added to the explicit force makes up for it.
      const V fx = hn::Sub(c.fx, hn::Mul(c.tangent_mass, gx));
      const V fy = hn::Sub(c.fy, hn::Mul(c.tangent_mass, gy));
      const V fz = hn::Sub(c.fz, hn::Mul(c.normal_mass, gz));
      ApplyPointForce(d, tree, poses, contact.link, c.cx, c.cy, c.cz, fx, fy, fz, c.active, forces,
                      i, store);
      // The plane's normal in the body frame: E_lb (R_l^T z), and the point r_lb - radius n_b.
      V lx, ly, lz;
      Rotate(hn::Neg(c.qx), hn::Neg(c.qy), hn::Neg(c.qz), c.qw, hn::Zero(d), hn::Zero(d),
             hn::Set(d, 1.0f), lx, ly, lz);
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
      store(c.normal_mass, d, added_points.Array(kAddedPointArrays * n + 6) + i);
      store(c.tangent_mass, d, added_points.Array(kAddedPointArrays * n + 7) + i);
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
  const V zero = hn::Zero(d), mu = hn::Set(d, ground.friction);
  bool any = false;
  ForEachVector(d, poses.count, [&](size_t i, auto store) HWY_ATTR {
    const size_t valid = poses.count - i < hn::Lanes(d) ? poses.count - i : hn::Lanes(d);
    for (size_t n = 0; n < contact_count; ++n) {
      const ContactPoint& contact = contacts[n];
      const auto c =
          ContactRowsAt(d, tree, contact, n, ground, normal, poses, velocities, state, step, i);
      V ax, ay, az, fx, fy, fz;
      PointMotion(d, tree, poses, contact.link, c.cx, c.cy, c.cz, accelerations, i, ax, ay, az);
      ContactForces(c, ax, ay, az, fx, fy, fz);
      const V flag = hn::LoadU(d, step.flags.Array(n) + i);
      const V slip = hn::LoadU(d, step.slipping.Array(n) + i);
      // The normal row's flag (soft_constraint.h, one-sided rows).
      const V dt = hn::Set(d, normal.dt);
      const V end = hn::Add(c.r, hn::Mul(dt, hn::Add(c.vz, hn::Mul(dt, az))));
      const V updated = NextRowFlag(d, flag, c.active, hn::Lt(fz, zero),
                                    hn::Lt(end, hn::Min(c.r, zero)), may_release);
      const auto released = hn::Lt(updated, zero);
      // Sticks: a contact sliding as it entered the step whose sliding force would turn its
      // tangential velocity around within the step (explicit Coulomb friction stronger than the
      // motion it brakes): it sticks for the step instead. Slips: a sticking contact whose
      // tangential force left the cone.
      const V limit = hn::Mul(mu, fz);
      const V size = hn::Sqrt(hn::Add(hn::Mul(fx, fx), hn::Mul(fy, fy)));
      const V wx = hn::Add(c.vx, hn::Mul(dt, ax)), wy = hn::Add(c.vy, hn::Mul(dt, ay));
      const auto reverses = hn::Lt(Dot3(wx, wy, zero, c.vx, c.vy, zero), zero);
      const auto active_kept = hn::AndNot(released, c.active);  // friction of rows still acting
      const auto sticks =
          hn::And(hn::And(active_kept, c.sliding), hn::And(hn::Eq(slip, zero), reverses));
      const auto slips = hn::AndNot(
          c.sliding, hn::And(active_kept, hn::And(hn::Le(slip, zero), hn::Gt(size, limit))));
      const auto moved =
          hn::And(hn::Or(hn::Ne(updated, flag), hn::Or(sticks, slips)), hn::FirstN(d, valid));
      any = any || !hn::AllFalse(d, moved);
      float* mark = changed.Array(0) + i;
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
  const V zero = hn::Zero(d), dt = hn::Set(d, normal.dt), mu = hn::Set(d, ground.friction);
  ForEachVector(d, state.normal_forces.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t n = 0; n < contact_count; ++n) {
      const ContactPoint& contact = contacts[n];
      const auto c =
          ContactRowsAt(d, tree, contact, n, ground, normal, poses, velocities, state, step, i);
      V ax, ay, az, fx, fy, fz;
      PointMotion(d, tree, poses, contact.link, c.cx, c.cy, c.cz, accelerations, i, ax, ay, az);
      ContactForces(c, ax, ay, az, fx, fy, fz);
      // The tangential velocity at the step's end.
      const V wx = hn::Add(c.vx, hn::Mul(dt, ax)), wy = hn::Add(c.vy, hn::Mul(dt, ay));
      // Sticking: slides next when the force is outside the cone (the step's solves did not settle
      // it), else the anchor moves by dt v_t'.
      const V limit = hn::Mul(mu, hn::Max(fz, zero));
      const auto outside = hn::Gt(hn::Add(hn::Mul(fx, fx), hn::Mul(fy, fy)), hn::Mul(limit, limit));
      const V stick_ux = hn::IfThenElseZero(hn::Not(outside), hn::Add(c.ux, hn::Mul(dt, wx)));
      const V stick_uy = hn::IfThenElseZero(hn::Not(outside), hn::Add(c.uy, hn::Mul(dt, wy)));
      // Sliding: sticks next when v_t' no longer runs against the friction force (it stopped or
      // turned), anchored where it is (u = 0: the spring holds no energy it was not given).
      const auto stops = hn::Ge(Dot3(wx, wy, zero, fx, fy, zero), zero);
      const auto slides_next =
          hn::And(c.active, hn::Or(hn::AndNot(stops, c.sliding), hn::AndNot(c.sliding, outside)));
      store(hn::IfThenElseZero(c.active, fz), d, state.normal_forces.Array(n) + i);
      store(hn::IfThenElseZero(c.active, fx), d, state.friction_forces.Array(2 * n) + i);
      store(hn::IfThenElseZero(c.active, fy), d, state.friction_forces.Array(2 * n + 1) + i);
      const V ux = hn::IfThenElseZero(hn::Not(c.sliding), stick_ux);
      const V uy = hn::IfThenElseZero(hn::Not(c.sliding), stick_uy);
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
