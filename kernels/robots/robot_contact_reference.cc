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

// A contact's frame (kernels/robots/robot_contact-inl.h LoadContactFrame) for robot r.
struct ContactFrame {
  float distance;
  Vec3 c, n, t1, t2;

  // w along t1, t2 and n.
  Vec3 In(const Vec3& w) const { return {{Dot3(t1, w), Dot3(t2, w), Dot3(n, w)}}; }
  // The world vector f_n n + f_1 t1 + f_2 t2 of f along (t1, t2, n).
  Vec3 Out(const Vec3& f) const {
    Vec3 w;
    for (int k = 0; k < 3; ++k) w.v[k] = (n.v[k] * f.v[2] + t1.v[k] * f.v[0]) + t2.v[k] * f.v[1];
    return w;
  }
};

ContactFrame LoadContactFrame(const ConstLanesView& geometry, size_t n, size_t r) {
  const auto at = [&](size_t k) { return geometry.Array(kContactArrays * n + k)[r]; };
  ContactFrame frame{at(0), {{at(1), at(2), at(3)}}, {{at(4), at(5), at(6)}}, {}, {}};
  ContactTangents(frame.n.v, frame.t1.v, frame.t2.v);
  return frame;
}

// kernels/robots/robot_contact-inl.h BaseTurn: R (w x v) of a floating base, else zero.
Vec3 BaseTurn(const KinematicTree& tree, const RobotPoses& poses,
              const ConstLanesView& velocities) {
  if (!tree.floating_base) return {{0.0f, 0.0f, 0.0f}};
  const auto rate_of = [&](size_t array) { return velocities.Array(array)[poses.r]; };
  const Vec3 turn =
      Cross({{rate_of(3), rate_of(4), rate_of(5)}}, {{rate_of(0), rate_of(1), rate_of(2)}});
  return Rotate(poses.Orientation(0), turn);
}

// kernels/robots/robot_contact-inl.h ContactRowsAt (with ContactMasses) for robot r and contact
// n; v, b, f and the anchor along (t1, t2, n).
struct SoftContactRows {
  ContactFrame frame;
  Vec3 v, b;
  float r;
  bool active, sliding;
  float u1, u2;
  Vec3 f;  // f_e - m b, zero when inactive
  float normal_mass, tangent_mass;
};

// f - m a per row.
Vec3 SolvedRowForces(const SoftContactRows& c, const Vec3& f, const Vec3& a) {
  return {{f.v[0] - c.tangent_mass * a.v[0], f.v[1] - c.tangent_mass * a.v[1],
           f.v[2] - c.normal_mass * a.v[2]}};
}

SoftContactRows ContactRowsAt(const KinematicTree& tree, const ContactSet& contacts, size_t n,
                              const RobotPoses& poses, const ConstLanesView& velocities,
                              const ContactState& state, const ContactStep& step) {
  const size_t r = poses.r;
  const ContactPoint& contact = contacts.points[n];
  const ContactParameters& parameters = contacts.parameters[n];
  const SoftConstraintStep& normal = parameters.normal;
  SoftContactRows c;
  c.frame = LoadContactFrame(contacts.geometry, n, r);
  c.r = c.frame.distance - parameters.margin;
  const auto velocity = [&](size_t k) {
    return contacts.point_velocities.Array(kContactVelocityArrays * n + k)[r];
  };
  c.v = {{velocity(0), velocity(1), velocity(2)}};
  const float flag = step.flags.Array(n)[r];
  c.active = RowActive(flag, c.r < 0.0f);
  const float slip = step.slipping.Array(n)[r];
  const bool slipping = slip > 0.0f;
  c.sliding = (state.sliding.Array(n)[r] > 0.5f && slip == 0.0f) || slipping;
  const SoftRow row = SoftRowAt(normal, c.r, contact.inverse_inertia0,
                                contact.inverse_inertia0 * parameters.regulariser_scale);
  c.u1 = state.anchors.Array(2 * n)[r];
  c.u2 = state.anchors.Array(2 * n + 1)[r];
  // Sliding: -mu max(f_n, 0) along -v_t, or the previous friction force's direction when v_t = 0;
  // a slipping contact's slip force.
  const float previous_normal = PositivePart(state.normal_forces.Array(n)[r]);
  const float g1 = state.friction_forces.Array(2 * n)[r];
  const float g2 = state.friction_forces.Array(2 * n + 1)[r];
  const float v1 = c.v.v[0], v2 = c.v.v[1], vn = c.v.v[2];
  const float speed = std::sqrt(v1 * v1 + v2 * v2);
  const float previous_size = std::sqrt(g1 * g1 + g2 * g2);
  const bool moving = speed > 0.0f;
  const float d1 = moving ? -v1 : g1, d2 = moving ? -v2 : g2;
  const float size = moving ? speed : previous_size;
  const float scale = size > 0.0f ? (parameters.friction * previous_normal) / size : 0.0f;
  const float slide_1 = slipping ? step.slip_forces.Array(2 * n)[r] : scale * d1;
  const float slide_2 = slipping ? step.slip_forces.Array(2 * n + 1)[r] : scale * d2;
  const float stick_1 = SoftRowForce(row.stiffness, row.damping, row.reach, v1, c.u1);
  const float stick_2 = SoftRowForce(row.stiffness, row.damping, row.reach, v2, c.u2);
  c.f.v[0] = c.active ? (c.sliding ? slide_1 : stick_1) : 0.0f;
  c.f.v[1] = c.active ? (c.sliding ? slide_2 : stick_2) : 0.0f;
  // The normal: the arrival damping m / dt, a hard row's force, or MuJoCo's row.
  const bool arrives = vn < 0.0f && c.r - normal.dt * vn >= 0.0f;
  const float damping = arrives ? row.mass * (1.0f / normal.dt) : row.damping;
  float push = SoftRowForce(row.stiffness, damping, row.reach, vn, c.r);
  if (flag > 0.0f) push = HardRowForce(normal, flag, row.mass, c.r, vn);
  c.f.v[2] = c.active ? push : 0.0f;
  c.normal_mass = c.active ? row.mass : 0.0f;
  c.tangent_mass = c.active && !c.sliding ? row.mass : 0.0f;
  c.b = c.frame.In(BaseTurn(tree, poses, velocities));
  c.f = SolvedRowForces(c, c.f, c.b);
  return c;
}

// One contact after a solve: its rows, the point's acceleration and the rows' forces (along t1,
// t2, n).
struct SolvedContact {
  SoftContactRows rows;
  Vec3 a, f;
};

SolvedContact SolvedContactAt(const KinematicTree& tree, const ContactSet& contacts, size_t n,
                              const RobotPoses& robot, const ConstLanesView& velocities,
                              const ConstLanesView& accelerations, const ContactState& state,
                              const ContactStep& step) {
  SolvedContact solved;
  solved.rows = ContactRowsAt(tree, contacts, n, robot, velocities, state, step);
  const Vec3 a =
      PointMotion(tree, robot, contacts.points[n].link, solved.rows.frame.c, accelerations);
  const Vec3 along = solved.rows.frame.In(a);
  solved.f = SolvedRowForces(solved.rows, solved.rows.f, along);
  for (int k = 0; k < 3; ++k) solved.a.v[k] = along.v[k] + solved.rows.b.v[k];
  return solved;
}

// E_lb (R_l^T w) for a link of orientation q.
Vec3 WorldToBody(const ContactPoint& contact, const Quat& q, const Vec3& w) {
  const Vec3 l = Rotate({{-q.v[0], -q.v[1], -q.v[2]}, q.w}, w);
  const float* e = contact.link_rotation;
  Vec3 b;
  for (size_t k = 0; k < 3; ++k) {
    b.v[k] = Dot3({{e[3 * k], e[3 * k + 1], e[3 * k + 2]}}, l);
  }
  return b;
}

}  // namespace

void GroundContactGeometry(const KinematicTree& /*tree*/, const ContactPoint* contacts,
                           size_t count, float height, const ConstLanesView& poses,
                           const LanesView& geometry) {
  for (size_t r = 0; r < geometry.count; ++r) {
    const RobotPoses robot{poses, r};
    for (size_t n = 0; n < count; ++n) {
      const Vec3 o = robot.Position(contacts[n].link);
      const float cz = o.v[2] - contacts[n].radius;
      const float values[kContactArrays] = {cz - height, o.v[0], o.v[1], cz, 0.0f, 0.0f, 1.0f};
      for (size_t k = 0; k < kContactArrays; ++k) {
        geometry.Array(kContactArrays * n + k)[r] = values[k];
      }
    }
  }
}

void ContactVelocities(const KinematicTree& tree, const ContactSet& contacts,
                       const ConstLanesView& poses, const ConstLanesView& velocities,
                       const LanesView& out) {
  for (size_t r = 0; r < out.count; ++r) {
    const RobotPoses robot{poses, r};
    for (size_t n = 0; n < contacts.count; ++n) {
      const ContactFrame frame = LoadContactFrame(contacts.geometry, n, r);
      const Vec3 v =
          frame.In(PointMotion(tree, robot, contacts.points[n].link, frame.c, velocities));
      for (size_t k = 0; k < kContactVelocityArrays; ++k) {
        out.Array(kContactVelocityArrays * n + k)[r] = v.v[k];
      }
    }
  }
}

void ContactTerms(const KinematicTree& tree, const ContactSet& contacts,
                  const ConstLanesView& poses, const ConstLanesView& velocities,
                  const ContactState& state, const ContactStep& step, const LanesView& forces,
                  const LanesView& added_points) {
  for (size_t r = 0; r < forces.count; ++r) {
    const RobotPoses robot{poses, r};
    for (size_t n = 0; n < contacts.count; ++n) {
      const ContactPoint& contact = contacts.points[n];
      const SoftContactRows c = ContactRowsAt(tree, contacts, n, robot, velocities, state, step);
      if (c.active) {
        ApplyPointForce(tree, robot, contact.link, c.frame.c, c.frame.Out(c.f), forces);
      }
      // The normal and the point in the body frame.
      const Quat q = robot.Orientation(contact.link);
      const Vec3 normal = WorldToBody(contact, q, c.frame.n);
      const Vec3 point = WorldToBody(contact, q, Sub(c.frame.c, robot.Position(contact.link)));
      const size_t first = kAddedPointArrays * n;
      for (size_t k = 0; k < 3; ++k) {
        added_points.Array(first + k)[r] = point.v[k] + contact.link_origin[k];
        added_points.Array(first + 3 + k)[r] = normal.v[k];
      }
      added_points.Array(first + 6)[r] = c.normal_mass;
      added_points.Array(first + 7)[r] = c.tangent_mass;
    }
  }
}

bool UpdateContactFlags(const KinematicTree& tree, const ContactSet& contacts,
                        const ConstLanesView& poses, const ConstLanesView& velocities,
                        const ConstLanesView& accelerations, const ContactState& state,
                        bool may_release, const ContactStep& step, const LanesView& changed) {
  bool any = false;
  for (size_t r = 0; r < poses.count; ++r) {
    const RobotPoses robot{poses, r};
    for (size_t n = 0; n < contacts.count; ++n) {
      const float dt = contacts.parameters[n].normal.dt, mu = contacts.parameters[n].friction;
      const SolvedContact solved =
          SolvedContactAt(tree, contacts, n, robot, velocities, accelerations, state, step);
      const SoftContactRows& c = solved.rows;
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
      const float w1 = c.v.v[0] + dt * a.v[0], w2 = c.v.v[1] + dt * a.v[1];
      const bool reverses = Dot3({{w1, w2, 0.0f}}, {{c.v.v[0], c.v.v[1], 0.0f}}) < 0.0f;
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

void ContactForces(const KinematicTree& tree, const ContactSet& contacts,
                   const ConstLanesView& poses, const ConstLanesView& velocities,
                   const ConstLanesView& accelerations, const ContactStep& step,
                   const ContactState& state) {
  for (size_t r = 0; r < state.normal_forces.count; ++r) {
    const RobotPoses robot{poses, r};
    for (size_t n = 0; n < contacts.count; ++n) {
      const float dt = contacts.parameters[n].normal.dt, mu = contacts.parameters[n].friction;
      const SolvedContact solved =
          SolvedContactAt(tree, contacts, n, robot, velocities, accelerations, state, step);
      const SoftContactRows& c = solved.rows;
      const Vec3& a = solved.a;
      const Vec3& f = solved.f;
      // The tangential velocity at the step's end.
      const float w1 = c.v.v[0] + dt * a.v[0], w2 = c.v.v[1] + dt * a.v[1];
      // Sticking: slides next outside the cone, else the anchor moves by dt v_t'.
      const float limit = mu * PositivePart(f.v[2]);
      const bool outside = f.v[0] * f.v[0] + f.v[1] * f.v[1] > limit * limit;
      const float stick_u1 = outside ? 0.0f : c.u1 + dt * w1;
      const float stick_u2 = outside ? 0.0f : c.u2 + dt * w2;
      // Sliding: sticks next, anchored where it is, once v_t' no longer runs against f_t.
      const bool stops = Dot3({{w1, w2, 0.0f}}, {{f.v[0], f.v[1], 0.0f}}) >= 0.0f;
      const bool slides_next = c.active && (c.sliding ? !stops : outside);
      state.normal_forces.Array(n)[r] = c.active ? f.v[2] : 0.0f;
      state.friction_forces.Array(2 * n)[r] = c.active ? f.v[0] : 0.0f;
      state.friction_forces.Array(2 * n + 1)[r] = c.active ? f.v[1] : 0.0f;
      state.anchors.Array(2 * n)[r] = c.active && !c.sliding ? stick_u1 : 0.0f;
      state.anchors.Array(2 * n + 1)[r] = c.active && !c.sliding ? stick_u2 : 0.0f;
      state.sliding.Array(n)[r] = slides_next ? 1.0f : 0.0f;
    }
  }
}

}  // namespace swarm::reference
