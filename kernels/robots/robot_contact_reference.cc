// Scalar references for swarm/kernels/robots/robot_contact.h; the order of operations is the
// contract with kernels/robots/robot_contact-inl.h (see
// swarm/kernels/robots/robot_contact_reference.h).
#include "swarm/kernels/robots/robot_contact_reference.h"

#include <cmath>

#include "kernels/geometry/scalar_quaternion.h"
#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/kernels/robots/soft_constraint_reference.h"

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

// max(x, 0) as the kernels select it: +0 for -0 and for NaN.
float PositivePart(float x) { return x > 0.0f ? x : 0.0f; }

// Robot r's link poses.
struct RobotPoses {
  const ConstLanesView& poses;
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
};

Vec3 WorldAxis(const RobotPoses& poses, const KinematicJoint& joint, size_t link) {
  return Rotate(poses.Orientation(link), {{joint.axis[0], joint.axis[1], joint.axis[2]}});
}

// kernels/robots/robot_contact-inl.h PointMotion: J_c x for robot r's velocity-like arrays x.
Vec3 PointMotion(const KinematicTree& tree, const RobotPoses& poses, size_t link, const Vec3& c,
                 const ConstLanesView& x) {
  const size_t joint_begin = tree.floating_base ? 6 : 0;
  const auto rate_of = [&](size_t array) { return x.Array(array)[poses.r]; };
  Vec3 v{{0.0f, 0.0f, 0.0f}};
  for (size_t l = link; l != 0; l = tree.joints[l - 1].parent_link) {
    const KinematicJoint& joint = tree.joints[l - 1];
    if (joint.motion == JointMotion::kFixed) continue;
    Vec3 z = WorldAxis(poses, joint, l);
    const float rate = rate_of(joint_begin + static_cast<size_t>(joint.q_index)) * joint.multiplier;
    if (joint.motion == JointMotion::kRevolute) z = Cross(z, Sub(c, poses.Position(l)));
    for (int k = 0; k < 3; ++k) v.v[k] = v.v[k] + z.v[k] * rate;
  }
  if (tree.floating_base) {
    const Quat base = poses.Orientation(0);
    const Vec3 u = Rotate(base, {{rate_of(0), rate_of(1), rate_of(2)}});
    const Vec3 w = Rotate(base, {{rate_of(3), rate_of(4), rate_of(5)}});
    const Vec3 t = Cross(w, Sub(c, poses.Position(0)));
    for (int k = 0; k < 3; ++k) v.v[k] = v.v[k] + (u.v[k] + t.v[k]);
  }
  return v;
}

// kernels/robots/robot_contact-inl.h ApplyPointForce: forces += J_c^T f for robot r.
void ApplyPointForce(const KinematicTree& tree, const RobotPoses& poses, size_t link, const Vec3& c,
                     const Vec3& f, const LanesView& forces) {
  const size_t joint_begin = tree.floating_base ? 6 : 0;
  const auto add = [&](size_t array, float value) {
    float& io = forces.Array(array)[poses.r];
    io = io + value;
  };
  for (size_t l = link; l != 0; l = tree.joints[l - 1].parent_link) {
    const KinematicJoint& joint = tree.joints[l - 1];
    if (joint.motion == JointMotion::kFixed) continue;
    const Vec3 z = WorldAxis(poses, joint, l);
    const Vec3 g = joint.motion == JointMotion::kRevolute ? Cross(Sub(c, poses.Position(l)), f) : f;
    add(joint_begin + static_cast<size_t>(joint.q_index), Dot3(z, g) * joint.multiplier);
  }
  if (tree.floating_base) {
    const Quat base = poses.Orientation(0);
    const Quat conjugate{{-base.v[0], -base.v[1], -base.v[2]}, base.w};
    const Vec3 u = Rotate(conjugate, f);
    const Vec3 m = Rotate(conjugate, Cross(Sub(c, poses.Position(0)), f));
    for (size_t k = 0; k < 3; ++k) add(k, u.v[k]);
    for (size_t k = 0; k < 3; ++k) add(3 + k, m.v[k]);
  }
}

// kernels/robots/robot_contact-inl.h ContactRowsAt and ContactMasses for robot r and contact n.
struct ContactRows {
  Vec3 c, v;
  float r;
  bool active, sliding;
  float ux, uy, mass;
  Vec3 f;  // f_e, zero when inactive
  float normal_mass, tangent_mass;
};

ContactRows ContactRowsAt(const KinematicTree& tree, const ContactPoint& contact, size_t n,
                          const GroundContact& ground, const SoftConstraintStep& normal,
                          const RobotPoses& poses, const ConstLanesView& velocities,
                          const GroundContactState& state, const GroundContactStep& step) {
  const size_t r = poses.r;
  ContactRows c;
  c.c = poses.Position(contact.link);
  c.c.v[2] = c.c.v[2] - contact.radius;
  c.r = c.c.v[2] - ground.height;
  c.v = PointMotion(tree, poses, contact.link, c.c, velocities);
  const float flag = step.flags.Array(n)[r];
  c.active = RowActive(flag, c.r < 0.0f);
  const float slip = step.slipping.Array(n)[r];
  const bool slipping = slip > 0.0f;
  c.sliding = (state.sliding.Array(n)[r] > 0.5f && slip == 0.0f) || slipping;
  const SoftRow row = SoftRowAt(normal, c.r, contact.inverse_inertia0);
  c.mass = row.mass;
  c.ux = state.anchors.Array(2 * n)[r];
  c.uy = state.anchors.Array(2 * n + 1)[r];
  // Sliding: -mu max(f_n, 0) along -v_t, or the previous friction force's direction when v_t = 0;
  // a slipping contact's slip force.
  const float previous_normal = PositivePart(state.normal_forces.Array(n)[r]);
  const float gx = state.friction_forces.Array(2 * n)[r];
  const float gy = state.friction_forces.Array(2 * n + 1)[r];
  const float vx = c.v.v[0], vy = c.v.v[1], vz = c.v.v[2];
  const float speed = std::sqrt(vx * vx + vy * vy);
  const float previous_size = std::sqrt(gx * gx + gy * gy);
  const bool moving = speed > 0.0f;
  const float dx = moving ? -vx : gx, dy = moving ? -vy : gy;
  const float size = moving ? speed : previous_size;
  const float scale = size > 0.0f ? (ground.friction * previous_normal) / size : 0.0f;
  const float slide_x = slipping ? step.slip_forces.Array(2 * n)[r] : scale * dx;
  const float slide_y = slipping ? step.slip_forces.Array(2 * n + 1)[r] : scale * dy;
  const float stick_x = SoftRowForce(row.stiffness, row.damping, row.reach, vx, c.ux);
  const float stick_y = SoftRowForce(row.stiffness, row.damping, row.reach, vy, c.uy);
  c.f.v[0] = c.active ? (c.sliding ? slide_x : stick_x) : 0.0f;
  c.f.v[1] = c.active ? (c.sliding ? slide_y : stick_y) : 0.0f;
  // The normal: the arrival damping m / dt, a hard row's force, or MuJoCo's row.
  const bool arrives = vz < 0.0f && c.r - normal.dt * vz >= 0.0f;
  const float damping = arrives ? row.mass * (1.0f / normal.dt) : row.damping;
  float push = SoftRowForce(row.stiffness, damping, row.reach, vz, c.r);
  if (flag > 0.0f) push = HardRowForce(normal, flag, row.mass, c.r, vz);
  c.f.v[2] = c.active ? push : 0.0f;
  c.normal_mass = c.active ? row.mass : 0.0f;
  c.tangent_mass = c.active && !c.sliding ? row.mass : 0.0f;
  return c;
}

// f = f_e - m J_c qdd per row.
Vec3 ContactForces(const ContactRows& c, const Vec3& a) {
  return {{c.f.v[0] - c.tangent_mass * a.v[0], c.f.v[1] - c.tangent_mass * a.v[1],
           c.f.v[2] - c.normal_mass * a.v[2]}};
}

// One contact after a solve: its rows, the point's acceleration and the rows' forces.
struct SolvedContact {
  ContactRows rows;
  Vec3 a, f;
};

SolvedContact SolvedContactAt(const KinematicTree& tree, const ContactPoint& contact, size_t n,
                              const GroundContact& ground, const SoftConstraintStep& normal,
                              const RobotPoses& robot, const ConstLanesView& velocities,
                              const ConstLanesView& accelerations, const GroundContactState& state,
                              const GroundContactStep& step) {
  SolvedContact solved;
  solved.rows = ContactRowsAt(tree, contact, n, ground, normal, robot, velocities, state, step);
  solved.a = PointMotion(tree, robot, contact.link, solved.rows.c, accelerations);
  solved.f = ContactForces(solved.rows, solved.a);
  return solved;
}

}  // namespace

void GroundContactTerms(const KinematicTree& tree, const ContactPoint* contacts,
                        size_t contact_count, const GroundContact& ground,
                        const SoftConstraintStep& normal, const ConstLanesView& poses,
                        const ConstLanesView& velocities, const GroundContactState& state,
                        const GroundContactStep& step, const LanesView& forces,
                        const LanesView& added_points) {
  for (size_t r = 0; r < forces.count; ++r) {
    const RobotPoses robot{poses, r};
    for (size_t n = 0; n < contact_count; ++n) {
      const ContactPoint& contact = contacts[n];
      const ContactRows c =
          ContactRowsAt(tree, contact, n, ground, normal, robot, velocities, state, step);
      if (c.active) ApplyPointForce(tree, robot, contact.link, c.c, c.f, forces);
      // The plane's normal in the body frame, E_lb (R_l^T z), and the point r_lb - radius n_b.
      const Quat q = robot.Orientation(contact.link);
      const Vec3 l = Rotate({{-q.v[0], -q.v[1], -q.v[2]}, q.w}, {{0.0f, 0.0f, 1.0f}});
      const float* e = contact.link_rotation;
      for (size_t k = 0; k < 3; ++k) {
        const float n_k = (e[3 * k] * l.v[0] + e[3 * k + 1] * l.v[1]) + e[3 * k + 2] * l.v[2];
        added_points.Array(kAddedPointArrays * n + 3 + k)[r] = n_k;
        added_points.Array(kAddedPointArrays * n + k)[r] =
            contact.link_origin[k] - contact.radius * n_k;
      }
      added_points.Array(kAddedPointArrays * n + 6)[r] = c.normal_mass;
      added_points.Array(kAddedPointArrays * n + 7)[r] = c.tangent_mass;
    }
  }
}

bool UpdateContactFlags(const KinematicTree& tree, const ContactPoint* contacts,
                        size_t contact_count, const GroundContact& ground,
                        const SoftConstraintStep& normal, const ConstLanesView& poses,
                        const ConstLanesView& velocities, const ConstLanesView& accelerations,
                        const GroundContactState& state, bool may_release,
                        const GroundContactStep& step, const LanesView& changed) {
  const float dt = normal.dt, mu = ground.friction;
  bool any = false;
  for (size_t r = 0; r < poses.count; ++r) {
    const RobotPoses robot{poses, r};
    for (size_t n = 0; n < contact_count; ++n) {
      const SolvedContact solved = SolvedContactAt(tree, contacts[n], n, ground, normal, robot,
                                                   velocities, accelerations, state, step);
      const ContactRows& c = solved.rows;
      const Vec3& a = solved.a;
      const Vec3& f = solved.f;
      float& flag = step.flags.Array(n)[r];
      float& slip = step.slipping.Array(n)[r];
      const float end = c.r + dt * (c.v.v[2] + dt * a.v[2]);
      const bool crosses = end < (c.r < 0.0f ? c.r : 0.0f);
      const float updated = NextRowFlag(flag, c.active, f.v[2] < 0.0f, crosses, may_release,
                                        changed.Array(0)[r] != 0.0f);
      const bool released = updated < 0.0f;
      const float limit = mu * PositivePart(f.v[2]);  // a stopped pulling row holds none
      const float size = std::sqrt(f.v[0] * f.v[0] + f.v[1] * f.v[1]);
      const float wx = c.v.v[0] + dt * a.v[0], wy = c.v.v[1] + dt * a.v[1];
      const bool reverses = Dot3({{wx, wy, 0.0f}}, {{c.v.v[0], c.v.v[1], 0.0f}}) < 0.0f;
      const bool active_kept = c.active && !released;
      const bool sticks = active_kept && c.sliding && slip == 0.0f && reverses;
      const bool slips = !c.sliding && active_kept && slip <= 0.0f && size > limit;
      if (updated != flag || sticks || slips) {
        any = true;
        changed.Array(0)[r] = 1.0f;
      }
      flag = updated;
      if (sticks) slip = kContactSticking;
      if (slips) {
        slip = kContactSlipping;
        const float scale = limit / size;
        step.slip_forces.Array(2 * n)[r] = f.v[0] * scale;
        step.slip_forces.Array(2 * n + 1)[r] = f.v[1] * scale;
      }
    }
  }
  return any;
}

void GroundContactForces(const KinematicTree& tree, const ContactPoint* contacts,
                         size_t contact_count, const GroundContact& ground,
                         const SoftConstraintStep& normal, const ConstLanesView& poses,
                         const ConstLanesView& velocities, const ConstLanesView& accelerations,
                         const GroundContactStep& step, const GroundContactState& state) {
  const float dt = normal.dt, mu = ground.friction;
  for (size_t r = 0; r < state.normal_forces.count; ++r) {
    const RobotPoses robot{poses, r};
    for (size_t n = 0; n < contact_count; ++n) {
      const SolvedContact solved = SolvedContactAt(tree, contacts[n], n, ground, normal, robot,
                                                   velocities, accelerations, state, step);
      const ContactRows& c = solved.rows;
      const Vec3& a = solved.a;
      const Vec3& f = solved.f;
      // The tangential velocity at the step's end.
      const float wx = c.v.v[0] + dt * a.v[0], wy = c.v.v[1] + dt * a.v[1];
      // Sticking: slides next outside the cone, else the anchor moves by dt v_t'.
      const float limit = mu * PositivePart(f.v[2]);
      const bool outside = f.v[0] * f.v[0] + f.v[1] * f.v[1] > limit * limit;
      const float stick_ux = outside ? 0.0f : c.ux + dt * wx;
      const float stick_uy = outside ? 0.0f : c.uy + dt * wy;
      // Sliding: sticks next, anchored where it is, once v_t' no longer runs against f_t.
      const bool stops = Dot3({{wx, wy, 0.0f}}, {{f.v[0], f.v[1], 0.0f}}) >= 0.0f;
      const bool slides_next = c.active && (c.sliding ? !stops : outside);
      state.normal_forces.Array(n)[r] = c.active ? f.v[2] : 0.0f;
      state.friction_forces.Array(2 * n)[r] = c.active ? f.v[0] : 0.0f;
      state.friction_forces.Array(2 * n + 1)[r] = c.active ? f.v[1] : 0.0f;
      state.anchors.Array(2 * n)[r] = c.active && !c.sliding ? stick_ux : 0.0f;
      state.anchors.Array(2 * n + 1)[r] = c.active && !c.sliding ? stick_uy : 0.0f;
      state.sliding.Array(n)[r] = slides_next ? 1.0f : 0.0f;
    }
  }
}

}  // namespace swarm::reference
