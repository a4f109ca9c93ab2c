// Per-target code of the point-contact kernels (swarm/kernels/robots/robot_contact.h). Each
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
#include "swarm/kernels/collision/narrow_phase.h"
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

// The turning of a floating base's frame within a step: the integrator moves the base origin by
// u = v + dt (qdd + w x v) in the step's starting frame (swarm/kernels/robots/robot_torque.h,
// IntegrateFloatingBase: qdd's linear part holds -w x v, the frame's turning), so a material
// point's velocity at the step's end is J_c (v + dt qdd) + dt b with b = R (w x v), the same for
// every point of the robot. The rows' accelerations are J_c qdd + b: without b, the base of a body
// that turns as it moves (a rolling wheel) would drift by dt w x v per step against its contacts.
// Zero without a floating base.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void BaseTurn(D d, const KinematicTree& tree, const ConstLanesView& poses,
                         const ConstLanesView& velocities, size_t i, V& bx, V& by, V& bz) {
  bx = hn::Zero(d), by = hn::Zero(d), bz = hn::Zero(d);
  if (!tree.floating_base) return;
  const auto rate_of = [&](size_t array)
                           HWY_ATTR { return hn::LoadU(d, velocities.Array(array) + i); };
  V cx, cy, cz;
  Cross(rate_of(3), rate_of(4), rate_of(5), rate_of(0), rate_of(1), rate_of(2), cx, cy, cz);
  V px, py, pz, qx, qy, qz, qw;
  LoadLinkPose(d, poses, 0, i, px, py, pz, qx, qy, qz, qw);
  Rotate(qx, qy, qz, qw, cx, cy, cz, bx, by, bz);
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

// A contact's frame for lanes i..: the distance, the point c and the unit normal n of its
// geometry, and the tangents t1, t2 of n (robot_contact.h, ContactTangents).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void LoadContactFrame(D d, const ConstLanesView& geometry, size_t n, size_t i,
                                 V& distance, V& cx, V& cy, V& cz, V& nx, V& ny, V& nz, V& t1x,
                                 V& t1y, V& t1z, V& t2x, V& t2y, V& t2z) {
  const size_t first = kContactArrays * n;
  distance = hn::LoadU(d, geometry.Array(first) + i);
  cx = hn::LoadU(d, geometry.Array(first + 1) + i);
  cy = hn::LoadU(d, geometry.Array(first + 2) + i);
  cz = hn::LoadU(d, geometry.Array(first + 3) + i);
  nx = hn::LoadU(d, geometry.Array(first + 4) + i);
  ny = hn::LoadU(d, geometry.Array(first + 5) + i);
  nz = hn::LoadU(d, geometry.Array(first + 6) + i);
  const V one = hn::Set(d, 1.0f);
  const V sign = hn::IfThenElse(hn::Lt(nz, hn::Zero(d)), hn::Set(d, -1.0f), one);
  const V a = hn::Div(hn::Set(d, -1.0f), hn::Add(sign, nz));
  const V b = hn::Mul(hn::Mul(nx, ny), a);
  t1x = hn::Add(one, hn::Mul(hn::Mul(hn::Mul(sign, nx), nx), a));
  t1y = hn::Mul(sign, b);
  t1z = hn::Neg(hn::Mul(sign, nx));
  t2x = b;
  t2y = hn::Add(sign, hn::Mul(hn::Mul(ny, ny), a));
  t2z = hn::Neg(ny);
}

// The frame of a contact as one bundle of lanes would be a struct of vectors, which SVE forbids;
// these macros keep the long parameter lists of the helpers below readable instead.
#define SWARM_CONTACT_FRAME_PARAMS V nx, V ny, V nz, V t1x, V t1y, V t1z, V t2x, V t2y, V t2z
#define SWARM_CONTACT_FRAME_ARGS nx, ny, nz, t1x, t1y, t1z, t2x, t2y, t2z

// A world vector w in the contact's frame: along t1, t2 and n.
template <class V>
HWY_INLINE void ToContactFrame(SWARM_CONTACT_FRAME_PARAMS, V wx, V wy, V wz, V& w1, V& w2, V& wn) {
  w1 = Dot3(t1x, t1y, t1z, wx, wy, wz);
  w2 = Dot3(t2x, t2y, t2z, wx, wy, wz);
  wn = Dot3(nx, ny, nz, wx, wy, wz);
}

// The world vector f_n n + f_1 t1 + f_2 t2.
template <class V>
HWY_INLINE void FromContactFrame(SWARM_CONTACT_FRAME_PARAMS, V f1, V f2, V fn, V& fx, V& fy,
                                 V& fz) {
  fx = hn::Add(hn::Add(hn::Mul(nx, fn), hn::Mul(t1x, f1)), hn::Mul(t2x, f2));
  fy = hn::Add(hn::Add(hn::Mul(ny, fn), hn::Mul(t1y, f1)), hn::Mul(t2y, f2));
  fz = hn::Add(hn::Add(hn::Mul(nz, fn), hn::Mul(t1z, f1)), hn::Mul(t2z, f2));
}

// The masses the dynamics see: m_n = m where the contact is active, m_t = m where it also sticks.
template <class D, class V = hn::Vec<D>>
HWY_INLINE void ContactMasses(D /*d*/, hn::Mask<D> active, hn::Mask<D> sliding, V mass,
                              V& normal_mass, V& tangent_mass) {
  normal_mass = hn::IfThenElseZero(active, mass);
  tangent_mass = hn::IfThenElseZero(hn::AndNot(sliding, active), mass);
}

// f -= m a per row, along (t1, t2, n) (sliding friction as given: its m_t is 0): the rows' force
// for the point's acceleration a.
template <class V>
HWY_INLINE void SolvedRowForces(V normal_mass, V tangent_mass, V a1, V a2, V an, V& f1, V& f2,
                                V& fn) {
  fn = hn::Sub(fn, hn::Mul(normal_mass, an));
  f1 = hn::Sub(f1, hn::Mul(tangent_mass, a1));
  f2 = hn::Sub(f2, hn::Mul(tangent_mass, a2));
}

// One contact's rows at the step's start, for lanes i.. (through output parameters: SVE vectors
// and masks cannot be members of a struct): the contact point c (world) and its frame, the
// velocity v along (t1, t2, n), the row position r, whether the normal row is active and whether
// friction slides this step (else sticks), the anchor u, the rows' virtual masses (m_n = m where
// active, m_t = m where it also sticks: ContactMasses), the base's turning b (BaseTurn) along
// (t1, t2, n) and the explicit forces f_e - m b along (t1, t2, n) (zero where inactive).
template <class D, class M = hn::Mask<D>, class V = hn::Vec<D>>
HWY_INLINE void ContactRowsAt(D d, const KinematicTree& tree, const ContactSet& contacts, size_t n,
                              const ConstLanesView& poses, const ConstLanesView& velocities,
                              const ContactState& state, const ContactStep& step, size_t i, V& cx,
                              V& cy, V& cz, V& nx, V& ny, V& nz, V& t1x, V& t1y, V& t1z, V& t2x,
                              V& t2y, V& t2z, V& v1, V& v2, V& vn, V& r, M& active, M& sliding,
                              V& u1, V& u2, V& normal_mass, V& tangent_mass, V& b1, V& b2, V& bn,
                              V& f1, V& f2, V& fn) {
  const ContactPoint& contact = contacts.points[n];
  const ContactParameters& parameters = contacts.parameters[n];
  const SoftConstraintStep& normal = parameters.normal;
  const V zero = hn::Zero(d);
  V distance;
  LoadContactFrame(d, contacts.geometry, n, i, distance, cx, cy, cz, SWARM_CONTACT_FRAME_ARGS);
  r = hn::Sub(distance, hn::Set(d, parameters.margin));
  v1 = hn::LoadU(d, contacts.point_velocities.Array(kContactVelocityArrays * n) + i);
  v2 = hn::LoadU(d, contacts.point_velocities.Array(kContactVelocityArrays * n + 1) + i);
  vn = hn::LoadU(d, contacts.point_velocities.Array(kContactVelocityArrays * n + 2) + i);
  const V flag = hn::LoadU(d, step.flags.Array(n) + i);
  active = RowActive(d, flag, hn::Lt(r, zero));
  // The step's slip flag: kSlipping slides with slip_forces, kSticking sticks, 0 keeps the mode
  // the contact entered the step with.
  const V slip = hn::LoadU(d, step.slipping.Array(n) + i);
  const auto slipping = hn::Gt(slip, zero);
  const auto entered_sliding = hn::Gt(hn::LoadU(d, state.sliding.Array(n) + i), hn::Set(d, 0.5f));
  sliding = hn::Or(hn::And(entered_sliding, hn::Eq(slip, zero)), slipping);
  V stiffness, damping, reach, mass;
  SoftRowAt(d, normal, r, hn::Set(d, contact.inverse_inertia0),
            hn::Set(d, contact.inverse_inertia0 * parameters.regulariser_scale), stiffness, damping,
            mass, reach);
  u1 = hn::LoadU(d, state.anchors.Array(2 * n) + i);
  u2 = hn::LoadU(d, state.anchors.Array(2 * n + 1) + i);
  // Sliding: -mu max(f_n, 0) along -v_t (the previous step's normal force; the previous friction
  // force's direction when v_t = 0), or the cone's projection of this step's sticking force when a
  // solve found it outside the cone (slip_forces).
  const V previous_normal = PositivePart(hn::LoadU(d, state.normal_forces.Array(n) + i));
  const V g1 = hn::LoadU(d, state.friction_forces.Array(2 * n) + i);
  const V g2 = hn::LoadU(d, state.friction_forces.Array(2 * n + 1) + i);
  const V speed = hn::Sqrt(hn::Add(hn::Mul(v1, v1), hn::Mul(v2, v2)));
  const V previous_size = hn::Sqrt(hn::Add(hn::Mul(g1, g1), hn::Mul(g2, g2)));
  const auto moving = hn::Gt(speed, zero);
  const V d1 = hn::IfThenElse(moving, hn::Neg(v1), g1);
  const V d2 = hn::IfThenElse(moving, hn::Neg(v2), g2);
  const V size = hn::IfThenElse(moving, speed, previous_size);
  const auto has_direction = hn::Gt(size, zero);
  const V scale = hn::IfThenElseZero(
      has_direction, hn::Div(hn::Mul(hn::Set(d, parameters.friction), previous_normal),
                             hn::IfThenElse(has_direction, size, hn::Set(d, 1.0f))));
  const V slide_1 =
      hn::IfThenElse(slipping, hn::LoadU(d, step.slip_forces.Array(2 * n) + i), hn::Mul(scale, d1));
  const V slide_2 = hn::IfThenElse(slipping, hn::LoadU(d, step.slip_forces.Array(2 * n + 1) + i),
                                   hn::Mul(scale, d2));
  const V stick_1 = SoftRowForce(stiffness, damping, reach, v1, u1);
  const V stick_2 = SoftRowForce(stiffness, damping, reach, v2, u2);
  f1 = hn::IfThenElseZero(active, hn::IfThenElse(sliding, slide_1, stick_1));
  f2 = hn::IfThenElseZero(active, hn::IfThenElse(sliding, slide_2, stick_2));
  // The normal: a point that arrives (outside the surface one step ago: r - dt v_n >= 0) while
  // moving in stops within the step (damping m / dt: an inelastic impact); caught and stopped rows
  // are hard (soft_constraint.h); otherwise MuJoCo's soft row.
  const V inverse_dt = hn::Set(d, 1.0f / normal.dt);
  const auto arrives =
      hn::And(hn::Lt(vn, zero), hn::Ge(hn::Sub(r, hn::Mul(hn::Set(d, normal.dt), vn)), zero));
  const V impact_damping = hn::Mul(mass, inverse_dt);
  V push = hn::IfThenElse(arrives, SoftRowForce(stiffness, impact_damping, reach, vn, r),
                          SoftRowForce(stiffness, damping, reach, vn, r));
  push = hn::IfThenElse(hn::Gt(flag, zero), HardRowForce(d, normal, flag, mass, r, vn), push);
  fn = hn::IfThenElseZero(active, push);
  ContactMasses(d, active, sliding, mass, normal_mass, tangent_mass);
  V bx, by, bz;
  BaseTurn(d, tree, poses, velocities, i, bx, by, bz);
  ToContactFrame(SWARM_CONTACT_FRAME_ARGS, bx, by, bz, b1, b2, bn);
  SolvedRowForces(normal_mass, tangent_mass, b1, b2, bn, f1, f2, fn);
}

// One contact after a solve gave the accelerations: ContactRowsAt's velocity v, position r,
// activity, mode and anchor u, the point's acceleration within the step a = J_c qdd + b and the
// rows' forces f = f_e - m a (SolvedRowForces), all along (t1, t2, n). Shared by the flag update
// and the final forces.
template <class D, class M = hn::Mask<D>, class V = hn::Vec<D>>
HWY_INLINE void SolvedContactAt(D d, const KinematicTree& tree, const ContactSet& contacts,
                                size_t n, const ConstLanesView& poses,
                                const ConstLanesView& velocities,
                                const ConstLanesView& accelerations, const ContactState& state,
                                const ContactStep& step, size_t i, V& v1, V& v2, V& vn, V& r,
                                M& active, M& sliding, V& u1, V& u2, V& f1, V& f2, V& fn, V& a1,
                                V& a2, V& an) {
  V cx, cy, cz, nx, ny, nz, t1x, t1y, t1z, t2x, t2y, t2z, normal_mass, tangent_mass, b1, b2, bn;
  ContactRowsAt(d, tree, contacts, n, poses, velocities, state, step, i, cx, cy, cz,
                SWARM_CONTACT_FRAME_ARGS, v1, v2, vn, r, active, sliding, u1, u2, normal_mass,
                tangent_mass, b1, b2, bn, f1, f2, fn);
  V ax, ay, az;
  PointMotion(d, tree, poses, contacts.points[n].link, cx, cy, cz, accelerations, i, ax, ay, az);
  ToContactFrame(SWARM_CONTACT_FRAME_ARGS, ax, ay, az, a1, a2, an);
  SolvedRowForces(normal_mass, tangent_mass, a1, a2, an, f1, f2, fn);  // f_e - m b - m J_c qdd
  a1 = hn::Add(a1, b1), a2 = hn::Add(a2, b2), an = hn::Add(an, bn);
}

// Whether contact n's rows act in lanes i.. (soft_constraint.h, RowActive): what a vector of
// robots none of whose lanes touch can skip, writing what the rows would for them.
template <class D>
HWY_INLINE hn::Mask<D> ContactActive(D d, const ContactSet& contacts, size_t n,
                                     const ContactStep& step, size_t i) {
  const hn::Vec<D> r = hn::Sub(hn::LoadU(d, contacts.geometry.Array(kContactArrays * n) + i),
                               hn::Set(d, contacts.parameters[n].margin));
  return RowActive(d, hn::LoadU(d, step.flags.Array(n) + i), hn::Lt(r, hn::Zero(d)));
}

// E_lb (R_l^T w): a world direction w in the body frame of `contact`'s link (pose q).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void WorldToBody(D d, const ContactPoint& contact, V qx, V qy, V qz, V qw, V wx, V wy,
                            V wz, V& bx, V& by, V& bz) {
  V lx, ly, lz;
  Rotate(hn::Neg(qx), hn::Neg(qy), hn::Neg(qz), qw, wx, wy, wz, lx, ly, lz);
  const float* e = contact.link_rotation;
  bx = Dot3(hn::Set(d, e[0]), hn::Set(d, e[1]), hn::Set(d, e[2]), lx, ly, lz);
  by = Dot3(hn::Set(d, e[3]), hn::Set(d, e[4]), hn::Set(d, e[5]), lx, ly, lz);
  bz = Dot3(hn::Set(d, e[6]), hn::Set(d, e[7]), hn::Set(d, e[8]), lx, ly, lz);
}

inline void GroundContactGeometryImpl(const ContactPoint* contacts, size_t count, float height,
                                      const ConstLanesView& poses, const LanesView& geometry) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, geometry.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t n = 0; n < count; ++n) {
      const size_t pose = kPoseArrays * contacts[n].link, first = kContactArrays * n;
      const V cz = hn::Sub(hn::LoadU(d, poses.Array(pose + 2) + i), hn::Set(d, contacts[n].radius));
      store(hn::Sub(cz, hn::Set(d, height)), d, geometry.Array(first) + i);
      store(hn::LoadU(d, poses.Array(pose) + i), d, geometry.Array(first + 1) + i);
      store(hn::LoadU(d, poses.Array(pose + 1) + i), d, geometry.Array(first + 2) + i);
      store(cz, d, geometry.Array(first + 3) + i);
      store(hn::Zero(d), d, geometry.Array(first + 4) + i);
      store(hn::Zero(d), d, geometry.Array(first + 5) + i);
      store(hn::Set(d, 1.0f), d, geometry.Array(first + 6) + i);
    }
  });
}

// Contact n's added point for AddedInertia: the point c and the normal in the body frame,
// E_lb (R_l^T (c - o_l)) + r_lb and E_lb (R_l^T n), and the masses.
template <class D, class Store, class V = hn::Vec<D>>
HWY_INLINE void StoreAddedPoint(D d, const ContactPoint& contact, const ConstLanesView& poses,
                                size_t i, V cx, V cy, V cz, V nx, V ny, V nz, V normal_mass,
                                V tangent_mass, float* const* out, Store store) {
  V ox, oy, oz, qx, qy, qz, qw;
  LoadLinkPose(d, poses, contact.link, i, ox, oy, oz, qx, qy, qz, qw);
  V bx, by, bz, px, py, pz;
  WorldToBody(d, contact, qx, qy, qz, qw, nx, ny, nz, bx, by, bz);
  WorldToBody(d, contact, qx, qy, qz, qw, hn::Sub(cx, ox), hn::Sub(cy, oy), hn::Sub(cz, oz), px, py,
              pz);
  const float* origin = contact.link_origin;
  store(hn::Add(px, hn::Set(d, origin[0])), d, out[0] + i);
  store(hn::Add(py, hn::Set(d, origin[1])), d, out[1] + i);
  store(hn::Add(pz, hn::Set(d, origin[2])), d, out[2] + i);
  store(bx, d, out[3] + i);
  store(by, d, out[4] + i);
  store(bz, d, out[5] + i);
  store(normal_mass, d, out[6] + i);
  store(tangent_mass, d, out[7] + i);
}

inline void ContactVelocitiesImpl(const KinematicTree& tree, const ContactSet& contacts,
                                  const ConstLanesView& poses, const ConstLanesView& velocities,
                                  const LanesView& out) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, out.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t n = 0; n < contacts.count; ++n) {
      V distance, cx, cy, cz, nx, ny, nz, t1x, t1y, t1z, t2x, t2y, t2z;
      LoadContactFrame(d, contacts.geometry, n, i, distance, cx, cy, cz, SWARM_CONTACT_FRAME_ARGS);
      V vx, vy, vz, v1, v2, vn;
      PointMotion(d, tree, poses, contacts.points[n].link, cx, cy, cz, velocities, i, vx, vy, vz);
      ToContactFrame(SWARM_CONTACT_FRAME_ARGS, vx, vy, vz, v1, v2, vn);
      store(v1, d, out.Array(kContactVelocityArrays * n) + i);
      store(v2, d, out.Array(kContactVelocityArrays * n + 1) + i);
      store(vn, d, out.Array(kContactVelocityArrays * n + 2) + i);
    }
  });
}

inline void ContactTermsImpl(const KinematicTree& tree, const ContactSet& contacts,
                             const ConstLanesView& poses, const ConstLanesView& velocities,
                             const ContactState& state, const ContactStep& step,
                             const LanesView& forces, const LanesView& added_points) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, forces.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t n = 0; n < contacts.count; ++n) {
      const ContactPoint& contact = contacts.points[n];
      float* added[kAddedPointArrays];
      for (size_t k = 0; k < kAddedPointArrays; ++k) {
        added[k] = added_points.Array(kAddedPointArrays * n + k);
      }
      if (hn::AllFalse(d, ContactActive(d, contacts, n, step, i))) {
        // No lane touches: no force, no mass; the point and normal as the full path writes them.
        V distance, cx, cy, cz, nx, ny, nz, t1x, t1y, t1z, t2x, t2y, t2z;
        LoadContactFrame(d, contacts.geometry, n, i, distance, cx, cy, cz,
                         SWARM_CONTACT_FRAME_ARGS);
        StoreAddedPoint(d, contact, poses, i, cx, cy, cz, nx, ny, nz, hn::Zero(d), hn::Zero(d),
                        added, store);
        continue;
      }
      V cx, cy, cz, nx, ny, nz, t1x, t1y, t1z, t2x, t2y, t2z, v1, v2, vn, r, u1, u2, normal_mass,
          tangent_mass, b1, b2, bn, f1, f2, fn;
      hn::Mask<decltype(d)> active, sliding;
      ContactRowsAt(d, tree, contacts, n, poses, velocities, state, step, i, cx, cy, cz,
                    SWARM_CONTACT_FRAME_ARGS, v1, v2, vn, r, active, sliding, u1, u2, normal_mass,
                    tangent_mass, b1, b2, bn, f1, f2, fn);
      // J_c^T (f_e - m b) alone: forward dynamics' point inertias meet only the step's J_c qdd,
      // not gravity (robot_dynamics.h, AddedInertia), so it needs no correction for it.
      V fx, fy, fz;
      FromContactFrame(SWARM_CONTACT_FRAME_ARGS, f1, f2, fn, fx, fy, fz);
      ApplyPointForce(d, tree, poses, contact.link, cx, cy, cz, fx, fy, fz, active, forces, i,
                      store);
      StoreAddedPoint(d, contact, poses, i, cx, cy, cz, nx, ny, nz, normal_mass, tangent_mass,
                      added, store);
    }
  });
}

inline bool UpdateContactFlagsImpl(const KinematicTree& tree, const ContactSet& contacts,
                                   const ConstLanesView& poses, const ConstLanesView& velocities,
                                   const ConstLanesView& accelerations, const ContactState& state,
                                   bool may_release, const ContactStep& step,
                                   const LanesView& changed) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  bool any = false;
  ForEachVector(d, poses.count, [&](size_t i, auto store) HWY_ATTR {
    const size_t valid = poses.count - i < hn::Lanes(d) ? poses.count - i : hn::Lanes(d);
    for (size_t n = 0; n < contacts.count; ++n) {
      // Constants set in the loop body: captured from outside it, vector constants crashed GCC
      // 12's SLP vectoriser on SVE_256 (an internal compiler error) in these kernels.
      const ContactParameters& parameters = contacts.parameters[n];
      const V zero = hn::Zero(d), mu = hn::Set(d, parameters.friction);
      const V dt = hn::Set(d, parameters.normal.dt);
      float* mark = changed.Array(0) + i;
      const auto dormant = ContactActive(d, contacts, n, step, i);
      if (hn::AllFalse(d, dormant)) {
        // No lane touches: only a catch (or the last update's stop) can change a flag, and no
        // friction acts; the normal's motion as the full path computes it.
        V distance, cx, cy, cz, nx, ny, nz, t1x, t1y, t1z, t2x, t2y, t2z;
        LoadContactFrame(d, contacts.geometry, n, i, distance, cx, cy, cz,
                         SWARM_CONTACT_FRAME_ARGS);
        const V r = hn::Sub(distance, hn::Set(d, parameters.margin));
        const V vn =
            hn::LoadU(d, contacts.point_velocities.Array(kContactVelocityArrays * n + 2) + i);
        V ax, ay, az, bx, by, bz;
        PointMotion(d, tree, poses, contacts.points[n].link, cx, cy, cz, accelerations, i, ax, ay,
                    az);
        BaseTurn(d, tree, poses, velocities, i, bx, by, bz);
        const V an = hn::Add(Dot3(nx, ny, nz, ax, ay, az), Dot3(nx, ny, nz, bx, by, bz));
        const V end = hn::Add(r, hn::Mul(dt, hn::Add(vn, hn::Mul(dt, an))));
        const auto crosses = hn::Lt(end, hn::IfThenElseZero(hn::Lt(r, zero), r));
        const V flag = hn::LoadU(d, step.flags.Array(n) + i);
        const V updated = NextRowFlag(d, flag, dormant, dormant, crosses, may_release,
                                      hn::Ne(hn::LoadU(d, mark), zero));
        const auto moved = hn::And(hn::Ne(updated, flag), hn::FirstN(d, valid));
        any = any || !hn::AllFalse(d, moved);
        store(hn::IfThenElse(moved, hn::Set(d, 1.0f), hn::LoadU(d, mark)), d, mark);
        store(updated, d, step.flags.Array(n) + i);
        continue;
      }
      V v1, v2, vn, r, u1, u2, f1, f2, fn, a1, a2, an;
      hn::Mask<decltype(d)> active, sliding;
      SolvedContactAt(d, tree, contacts, n, poses, velocities, accelerations, state, step, i, v1,
                      v2, vn, r, active, sliding, u1, u2, f1, f2, fn, a1, a2, an);
      const V flag = hn::LoadU(d, step.flags.Array(n) + i);
      const V slip = hn::LoadU(d, step.slipping.Array(n) + i);
      // The normal row's flag (soft_constraint.h, one-sided rows): crosses when the point would
      // end the step inside the surface and deeper than it started (min(r, 0) by compare and
      // select).
      const V end = hn::Add(r, hn::Mul(dt, hn::Add(vn, hn::Mul(dt, an))));
      const auto crosses = hn::Lt(end, hn::IfThenElseZero(hn::Lt(r, zero), r));
      const V updated = NextRowFlag(d, flag, active, hn::Lt(fn, zero), crosses, may_release,
                                    hn::Ne(hn::LoadU(d, mark), zero));
      const auto released = hn::Lt(updated, zero);
      // Sticks: a contact sliding as it entered the step whose sliding force would turn its
      // tangential velocity around within the step (explicit Coulomb friction stronger than the
      // motion it brakes): it sticks for the step instead. Slips: a sticking contact whose
      // tangential force left the cone mu max(f_n, 0) (a pulling row that is stopped rather than
      // released holds no friction).
      const V limit = hn::Mul(mu, PositivePart(fn));
      const V size = hn::Sqrt(hn::Add(hn::Mul(f1, f1), hn::Mul(f2, f2)));
      const V w1 = hn::Add(v1, hn::Mul(dt, a1)), w2 = hn::Add(v2, hn::Mul(dt, a2));
      const auto reverses = hn::Lt(Dot3(w1, w2, zero, v1, v2, zero), zero);
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
      float* slip_1 = step.slip_forces.Array(2 * n) + i;
      float* slip_2 = step.slip_forces.Array(2 * n + 1) + i;
      store(hn::IfThenElse(slips, hn::Mul(f1, scale), hn::LoadU(d, slip_1)), d, slip_1);
      store(hn::IfThenElse(slips, hn::Mul(f2, scale), hn::LoadU(d, slip_2)), d, slip_2);
    }
  });
  return any;
}

inline void ContactForcesImpl(const KinematicTree& tree, const ContactSet& contacts,
                              const ConstLanesView& poses, const ConstLanesView& velocities,
                              const ConstLanesView& accelerations, const ContactStep& step,
                              const ContactState& state) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  ForEachVector(d, state.normal_forces.count, [&](size_t i, auto store) HWY_ATTR {
    for (size_t n = 0; n < contacts.count; ++n) {
      // Set inside the loop body: captured from outside it, these vectors crashed GCC 12's SLP
      // vectoriser on SVE_256 (an internal compiler error).
      const ContactParameters& parameters = contacts.parameters[n];
      const V zero = hn::Zero(d), dt = hn::Set(d, parameters.normal.dt);
      const V mu = hn::Set(d, parameters.friction);
      if (hn::AllFalse(d, ContactActive(d, contacts, n, step, i))) {
        // No lane touches: the state the full path gives contacts that do not act.
        for (const LanesView* view : {&state.normal_forces, &state.sliding}) {
          store(zero, d, view->Array(n) + i);
        }
        for (const LanesView* view : {&state.friction_forces, &state.anchors}) {
          store(zero, d, view->Array(2 * n) + i);
          store(zero, d, view->Array(2 * n + 1) + i);
        }
        continue;
      }
      V v1, v2, vn, r, u1, u2, f1, f2, fn, a1, a2, an;
      hn::Mask<decltype(d)> active, sliding;
      SolvedContactAt(d, tree, contacts, n, poses, velocities, accelerations, state, step, i, v1,
                      v2, vn, r, active, sliding, u1, u2, f1, f2, fn, a1, a2, an);
      // The tangential velocity at the step's end.
      const V w1 = hn::Add(v1, hn::Mul(dt, a1)), w2 = hn::Add(v2, hn::Mul(dt, a2));
      // Sticking: slides next when the force is outside the cone (the step's solves did not settle
      // it), else the anchor moves by dt v_t'.
      const V limit = hn::Mul(mu, PositivePart(fn));
      const auto outside = hn::Gt(hn::Add(hn::Mul(f1, f1), hn::Mul(f2, f2)), hn::Mul(limit, limit));
      const V stick_u1 = hn::IfThenElseZero(hn::Not(outside), hn::Add(u1, hn::Mul(dt, w1)));
      const V stick_u2 = hn::IfThenElseZero(hn::Not(outside), hn::Add(u2, hn::Mul(dt, w2)));
      // Sliding: sticks next when v_t' no longer runs against the friction force (it stopped or
      // turned), anchored where it is (u = 0: the spring holds no energy it was not given).
      const auto stops = hn::Ge(Dot3(w1, w2, zero, f1, f2, zero), zero);
      const auto slides_next =
          hn::And(active, hn::Or(hn::AndNot(stops, sliding), hn::AndNot(sliding, outside)));
      store(hn::IfThenElseZero(active, fn), d, state.normal_forces.Array(n) + i);
      store(hn::IfThenElseZero(active, f1), d, state.friction_forces.Array(2 * n) + i);
      store(hn::IfThenElseZero(active, f2), d, state.friction_forces.Array(2 * n + 1) + i);
      const V next_u1 = hn::IfThenElseZero(hn::Not(sliding), stick_u1);
      const V next_u2 = hn::IfThenElseZero(hn::Not(sliding), stick_u2);
      store(hn::IfThenElseZero(active, next_u1), d, state.anchors.Array(2 * n) + i);
      store(hn::IfThenElseZero(active, next_u2), d, state.anchors.Array(2 * n + 1) + i);
      store(hn::IfThenElseZero(slides_next, hn::Set(d, 1.0f)), d, state.sliding.Array(n) + i);
    }
  });
}

#undef SWARM_CONTACT_FRAME_PARAMS
#undef SWARM_CONTACT_FRAME_ARGS

}  // namespace HWY_NAMESPACE
}  // namespace swarm
HWY_AFTER_NAMESPACE();

#endif  // SWARM_KERNELS_ROBOT_CONTACT_INL_H_
