// Tests for the point-contact kernels of swarm/kernels/robots/robot_contact.h against a
// double-precision reference built independently of the kernels' Jacobian walk: the link poses
// from the matrix forward kinematics of tests/kernels/robots/robot_fixture.h, the velocity (and
// J_c qdd) of the link's material point at the contact point by central differences of that
// point's position along the configuration moved by each velocity coordinate (a floating base
// turned by its body rate), taken along the contact's normal and tangents (ContactTangents), every
// generalised-force column J_c^T f from the same differences, and MuJoCo's row model
// in double (tests/support/soft_constraint_model.h) for the normal row and the sticking
// tangents, with the arrival damping, the push-out cap and the hard rows of
// swarm/kernels/robots/soft_constraint.h, Coulomb's law for sliding ones. Checked, on every
// compiled SIMD target:
//   - ContactTerms, for ground contacts and contacts of random geometry (normals in every
//     direction, a margin): J_c^T (f_e - m b) added to the generalised forces (no gravity term:
//     the point inertias meet only J_c qdd; b a floating base's turning within the step, whose
//     integrator moves the base origin by v + dt (qdd + w x v) in the starting frame); the added
//     point of each contact and its normal in its body frame and its masses (m on the normal when
//     active, across it too when sticking);
//   - UpdateContactFlags, with and without releases: the normal rows' flags (released, caught,
//     dropped, stopped), friction's (a sticking contact outside the cone slips with the cone's
//     projection of its force, a sliding one whose friction turns it around sticks), the marks;
//   - ContactForces: the forces f = f_e - m J_c qdd, and the next step's mode and anchor:
//     sticking inside the cone moves its anchor by dt v_t', outside it slides; sliding on sticks
//     again, anchored where it is (u = 0), once v_t' no longer runs against f_t; inactive contacts
//     reset.
// Tolerances (measured worst in brackets): forces 1e-4 of the largest force of the robot or
// contact (generalised 2.7e-5, rows 4.2e-5, slip forces 1.1e-5: float32 poses of points up to 3 m
// from the origin round to 2e-7 m, which the stiffness, the arrival damping m / dt and the
// Jacobian's lever arms turn into ~1e-5 of the force); the added points and unit normals 1e-5
// (1.1e-6); masses 1e-4 relative (1.3e-6); anchors 1e-4 of the terms they sum (6.3e-6). Robots with
// a contact whose activity, flag or mode a float rounding could decide (within 1e-5 m of touching
// or of its arrival, velocities, forces or dot products within 1e-4 of their thresholds) are left
// out of all but the geometry.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <vector>

#include "swarm/kernels/robots/robot_contact.h"
#include "tests/kernels/robots/contact_fixture.h"
#include "tests/kernels/robots/robot_fixture.h"
#include "tests/support/for_each_target.h"
#include "tests/support/soft_constraint_model.h"

namespace swarm {
namespace {

using test::Advance;
using test::ContactCase;
using test::ContactStateLanes;
using test::ContactStepLanes;
using test::PointVelocity;
using test::RobotLanes;
using test::TestRobot;

constexpr double kForceTolerance = 1e-4;
constexpr double kPointTolerance = 1e-5;
constexpr double kMassTolerance = 1e-4;
constexpr double kAnchorTolerance = 1e-4;
constexpr double kDt = test::kContactDt;

// A contact's geometry for one robot, in double: the point, the unit normal and its tangents.
struct Frame {
  double distance = 0.0;
  glm::dvec3 point{0.0}, normal{0.0}, t1{0.0}, t2{0.0};
  glm::dvec3 In(const glm::dvec3& w) const {
    return {glm::dot(t1, w), glm::dot(t2, w), glm::dot(normal, w)};
  }
  glm::dvec3 Out(const glm::dvec3& f) const { return f.x * t1 + f.y * t2 + f.z * normal; }
};

Frame FrameOf(const ContactCase& c, size_t n, size_t r) {
  const size_t at = kContactArrays * n;
  float normal[3], t1[3], t2[3];
  for (size_t k = 0; k < 3; ++k) normal[k] = c.geometry.At(at + 4 + k, r);
  ContactTangents(normal, t1, t2);
  Frame frame;
  frame.distance = c.geometry.At(at, r);
  for (int k = 0; k < 3; ++k) {
    frame.point[k] = c.geometry.At(at + 1 + static_cast<size_t>(k), r);
    frame.normal[k] = normal[k], frame.t1[k] = t1[k], frame.t2[k] = t2[k];
  }
  return frame;
}

// |x| within `tolerance` of 0 relative to `scale`: float rounding could give either sign.
bool Near(double x, double scale, double tolerance = 1e-4) {
  return std::fabs(x) <= tolerance * scale;
}

// One contact of one robot in double: its rows at the step's start, f_e and masses, and (given
// J_c qdd) the forces, the step's flags after UpdateContactFlags and the next step's state.
// `ambiguous` when float rounding could decide a branch differently.
struct ContactModel {
  bool ambiguous = false, active = false, sliding = false, arrives = false, capped = false;
  bool mass_capped = false;
  // f_e, f_e - m b (what reaches the generalised forces) and the force after the solve.
  glm::dvec3 explicit_force{0.0}, applied_force{0.0}, force{0.0};
  double normal_mass = 0.0, tangent_mass = 0.0;
  double scale = 1.0;  // of the forces
  // UpdateContactFlags, with and without releases.
  float flag[2] = {0.0f, 0.0f}, slip[2] = {0.0f, 0.0f};
  double slip_force[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
  bool changed[2] = {false, false};
  // ContactForces.
  bool slides_next = false;
  double anchor[2] = {0.0, 0.0};
  double anchor_scale = 0.0;  // of the anchors' terms
};

// velocity and acceleration along (t1, t2, n), the acceleration the point's within the step
// (J_c qdd + b, b the base's turning), position = distance - margin.
ContactModel ModelContact(const ContactCase& c, size_t n, size_t r, double position,
                          const glm::dvec3& velocity, const glm::dvec3& acceleration,
                          const glm::dvec3& turn) {
  const ContactPoint& contact = c.contacts[n];
  const SoftConstraint& soft = c.softs[n];
  const double mu = c.parameters[n].friction;
  ContactModel m;
  const float flag = c.step.flags.At(n, r), slip = c.step.slipping.At(n, r);
  const double previous = c.state.normal.At(n, r);
  const double u[2] = {c.state.anchors.At(2 * n, r), c.state.anchors.At(2 * n + 1, r)};
  const double g[2] = {c.state.friction.At(2 * n, r), c.state.friction.At(2 * n + 1, r)};
  m.active = (flag == 0.0f && position < 0.0) || flag > 0.0f;
  m.sliding = (c.state.sliding.At(n, r) > 0.5f && slip == 0.0f) || slip > 0.0f;
  m.ambiguous = std::fabs(position) < 1e-5;
  const test::MujocoRow row = test::MujocoRowAt(soft, kDt, position, contact.inverse_inertia0,
                                                c.parameters[n].regulariser_scale);
  m.mass_capped = row.mass_capped;
  // The normal row's f_e: hard, arriving (m / dt) or MuJoCo's.
  const double arrival = position - kDt * velocity.z;
  m.arrives = velocity.z < 0.0 && arrival >= 0.0;
  m.ambiguous = m.ambiguous || (velocity.z < 0.0 && std::fabs(arrival) < 1e-5);
  double normal_force;
  if (flag > 0.0f) {
    const double target = flag == kRowStopped ? 0.0 : -std::max(position, 0.0) / kDt;
    normal_force = row.mass * (target - velocity.z) / kDt;
  } else {
    normal_force = test::MujocoExplicitForce(row, m.arrives ? row.mass / kDt : row.damping,
                                             velocity.z, position);
    m.capped = std::fabs(position) > row.reach;
  }
  // Friction's f_e: Coulomb along -v_t (the previous force's direction when v_t = 0) or the slip
  // force when sliding, the anchor's spring and damper when sticking.
  glm::dvec3 tangent(0.0);
  const double speed = std::hypot(velocity.x, velocity.y);
  if (slip > 0.0f) {
    tangent = {c.step.slip_forces.At(2 * n, r), c.step.slip_forces.At(2 * n + 1, r), 0.0};
  } else if (m.sliding) {
    m.ambiguous = m.ambiguous || speed < 1e-4;
    const double scale = mu * std::max(previous, 0.0) / speed;
    tangent = {-scale * velocity.x, -scale * velocity.y, 0.0};
  } else {
    tangent = {test::MujocoExplicitForce(row, velocity.x, u[0]),
               test::MujocoExplicitForce(row, velocity.y, u[1]), 0.0};
    m.capped = m.capped || std::fabs(u[0]) > row.reach || std::fabs(u[1]) > row.reach;
  }
  (void)g;
  if (!m.active) return m;
  m.explicit_force = {tangent.x, tangent.y, normal_force};
  m.normal_mass = row.mass;
  m.tangent_mass = m.sliding ? 0.0 : row.mass;
  const glm::dvec3 masses(m.tangent_mass, m.tangent_mass, m.normal_mass);
  m.force = m.explicit_force - masses * acceleration;
  m.applied_force = m.explicit_force - masses * turn;
  for (int k = 0; k < 3; ++k) {
    m.scale =
        std::max({m.scale, std::fabs(m.explicit_force[k]), std::fabs(masses[k] * acceleration[k])});
  }
  const double tangential = std::hypot(m.force.x, m.force.y);
  const double end[2] = {velocity.x + kDt * acceleration.x, velocity.y + kDt * acceleration.y};
  const double end_speed = std::hypot(end[0], end[1]);
  // UpdateContactFlags on an active row (unflagged and violated, caught or stopped): only a pull
  // changes its flag (an active row is never caught); friction of rows that stay active may slip
  // (sticking inside the step, outside the cone mu max(f_n, 0): a pulling row that is stopped,
  // not released, holds no friction) or stick (sliding as it entered the step and turned around by
  // its friction).
  const bool pulls = m.force.z < 0.0;
  const double along = end[0] * velocity.x + end[1] * velocity.y;
  const bool reverses = along < 0.0;
  const double limit = mu * std::max(m.force.z, 0.0);
  m.ambiguous = m.ambiguous || ((flag == 0.0f || flag == kRowCaught) && Near(m.force.z, m.scale)) ||
                (m.sliding && slip == 0.0f && Near(along, (speed + end_speed) * speed + 1e-30)) ||
                (!m.sliding && slip <= 0.0f && Near(tangential - limit, m.scale));
  for (int release = 0; release < 2; ++release) {
    const bool may_release = release == 0;
    float next = flag;
    if (may_release && flag == 0.0f && pulls) next = kRowReleased;
    if (flag == kRowCaught && pulls) next = may_release ? kRowDropped : kRowStopped;
    const bool kept = next >= 0.0f;
    const bool sticks = kept && m.sliding && slip == 0.0f && reverses;
    const bool slips = kept && !m.sliding && slip <= 0.0f && tangential > limit;
    m.flag[release] = next;
    m.slip[release] = sticks ? kContactSticking : (slips ? kContactSlipping : slip);
    m.slip_force[release][0] = c.step.slip_forces.At(2 * n, r);
    m.slip_force[release][1] = c.step.slip_forces.At(2 * n + 1, r);
    if (slips) {
      for (int k = 0; k < 2; ++k) m.slip_force[release][k] = m.force[k] * limit / tangential;
    }
    m.changed[release] = next != flag || sticks || slips;
  }
  // ContactForces: the next step's mode and anchor.
  const bool outside = tangential > limit;
  const double against = end[0] * m.force.x + end[1] * m.force.y;
  const bool stops = against >= 0.0;
  m.ambiguous = m.ambiguous || (m.sliding && Near(against, end_speed * tangential + 1e-30)) ||
                (!m.sliding && Near(tangential - limit, m.scale));
  m.slides_next = m.sliding ? !stops : outside;
  for (int k = 0; k < 2; ++k) m.anchor[k] = m.sliding || outside ? 0.0 : u[k] + kDt * end[k];
  m.anchor_scale =
      std::fabs(u[0]) + std::fabs(u[1]) + kDt * (std::fabs(end[0]) + std::fabs(end[1]));
  return m;
}

// A flag's active half for a contact inactive at the step's start: an unflagged, released or
// dropped row that crosses is caught, the others keep their flags (nothing pulls without a force).
void ModelInactiveFlags(const ContactCase& c, size_t n, size_t r, double position,
                        const glm::dvec3& velocity, const glm::dvec3& acceleration,
                        ContactModel& m) {
  const float flag = c.step.flags.At(n, r), slip = c.step.slipping.At(n, r);
  const double depth_end = position + kDt * (velocity.z + kDt * acceleration.z);
  const double bound = std::min(position, 0.0);
  m.ambiguous =
      m.ambiguous || Near(depth_end - bound, std::fabs(position) + kDt * std::fabs(velocity.z) +
                                                 kDt * kDt * std::fabs(acceleration.z));
  const bool catches =
      (flag == 0.0f || flag == kRowReleased || flag == kRowDropped) && depth_end < bound;
  const bool let_go = flag == kRowReleased || flag == kRowDropped;
  for (int release = 0; release < 2; ++release) {
    // The last update (release 1, every robot marked) stops the rows the step let go.
    m.flag[release] = release == 1 && let_go ? kRowStopped : (catches ? kRowCaught : flag);
    m.slip[release] = slip;
    m.slip_force[release][0] = c.step.slip_forces.At(2 * n, r);
    m.slip_force[release][1] = c.step.slip_forces.At(2 * n + 1, r);
    m.changed[release] = m.flag[release] != flag;
  }
}

// A world direction w in the contact's body frame, E (R_l^T w), from the double forward
// kinematics.
glm::dvec3 BodyDirection(const glm::dmat4& link_pose, const ContactPoint& contact,
                         const glm::dvec3& w) {
  const glm::dvec3 in_link = glm::transpose(glm::dmat3(link_pose)) * w;
  glm::dvec3 in_body(0.0);
  for (int k = 0; k < 3; ++k) {
    for (int col = 0; col < 3; ++col)
      in_body[k] += contact.link_rotation[3 * k + col] * in_link[col];
  }
  return in_body;
}

// What the comparisons saw.
struct Seen {
  size_t touching = 0, arriving = 0, hard = 0, capped = 0, mass_capped = 0;
  size_t released = 0, caught = 0, dropped = 0, stopped = 0, slipped = 0, stuck = 0;
  size_t stick_stick = 0, stick_slide = 0, slide_stick = 0, slide_slide = 0;
};

void Tally(const ContactModel& m, float flag, float slip, Seen& seen) {
  seen.caught += m.flag[0] == kRowCaught && flag != kRowCaught;
  seen.released += m.flag[0] == kRowReleased && flag != kRowReleased;
  seen.dropped += m.flag[0] == kRowDropped && flag != kRowDropped;
  seen.stopped += m.flag[1] == kRowStopped && flag != kRowStopped;
  if (!m.active) return;
  ++seen.touching;
  seen.arriving += flag <= 0.0f && m.arrives;
  seen.hard += flag > 0.0f;
  seen.capped += m.capped;
  seen.mass_capped += m.mass_capped;
  seen.slipped += m.slip[0] == kContactSlipping && slip != kContactSlipping;
  seen.stuck += m.slip[0] == kContactSticking && slip != kContactSticking;
  if (m.sliding) {
    ++(m.slides_next ? seen.slide_slide : seen.slide_stick);
  } else {
    ++(m.slides_next ? seen.stick_slide : seen.stick_stick);
  }
}

// One case against the model: every robot and contact, on every target; what it saw into `seen`.
void CheckAgainstModel(const TestRobot& robot, ContactCase& c, Seen& seen) {
  const KinematicTree tree = robot.tree();
  const size_t robots = c.q.count();
  const size_t n = ContactVelocityCount(tree), contacts = c.contacts.size();
  // The reference, per robot and contact (the same on every target).
  std::vector<ContactModel> models(robots * contacts);
  std::vector<std::vector<double>> want_forces(robots, std::vector<double>(n, 0.0));
  std::vector<glm::dvec3> want_normals(robots * contacts), want_points(robots * contacts);
  std::vector<bool> skip(robots, false);
  for (size_t r = 0; r < robots; ++r) {
    const std::vector<double> q = test::RobotQ(c.q, r);
    std::vector<double> v(n), qdd(n);
    for (size_t k = 0; k < n; ++k) v[k] = c.velocities.At(k, r), qdd[k] = c.accelerations.At(k, r);
    const std::vector<glm::dmat4> links = test::DoubleForwardKinematics(robot, q);
    // A floating base's turning within the step, R (w x v): the integrator moves the base origin
    // by v + dt (qdd + w x v) in the starting frame (robot_torque.h, IntegrateFloatingBase).
    glm::dvec3 turn_world(0.0);
    if (tree.floating_base) {
      const glm::dvec3 linear(v[0], v[1], v[2]), angular(v[3], v[4], v[5]);
      turn_world = glm::dmat3(links[0]) * glm::cross(angular, linear);
    }
    for (size_t m = 0; m < contacts; ++m) {
      const ContactPoint& contact = c.contacts[m];
      const Frame frame = FrameOf(c, m, r);
      const glm::dvec3 velocity = frame.In(PointVelocity(robot, q, v, contact, frame.point));
      const glm::dvec3 turn = frame.In(turn_world);
      const glm::dvec3 acceleration =
          frame.In(PointVelocity(robot, q, qdd, contact, frame.point)) + turn;
      const double position = frame.distance - double(c.parameters[m].margin);
      ContactModel& model = models[r * contacts + m];
      model = ModelContact(c, m, r, position, velocity, acceleration, turn);
      if (!model.active) ModelInactiveFlags(c, m, r, position, velocity, acceleration, model);
      skip[r] = skip[r] || model.ambiguous;
      const glm::dmat4& link = links[contact.link];
      want_normals[r * contacts + m] = BodyDirection(link, contact, frame.normal);
      const glm::dvec3 offset = BodyDirection(link, contact, frame.point - glm::dvec3(link[3]));
      for (int k = 0; k < 3; ++k) {
        want_points[r * contacts + m][k] = offset[k] + contact.link_origin[k];
      }
      if (!model.active) continue;
      const glm::dvec3 world_force = frame.Out(model.applied_force);
      for (size_t k = 0; k < n; ++k) {
        std::vector<double> unit(n, 0.0);
        unit[k] = 1.0;
        want_forces[r][k] +=
            glm::dot(world_force, PointVelocity(robot, q, unit, contact, frame.point));
      }
    }
    if (skip[r]) continue;
    for (size_t m = 0; m < contacts; ++m) {
      Tally(models[r * contacts + m], c.step.flags.At(m, r), c.step.slipping.At(m, r), seen);
    }
  }
  size_t checked = 0;
  for (size_t r = 0; r < robots; ++r) checked += !skip[r];
  CHECK(checked > robots / 4);
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO(robot.name << ", target " << target.name);
    RobotLanes forces = c.forces;
    RobotLanes points(robots, kAddedPointArrays * contacts, test::kContactPadding);
    ContactTerms(tree, c.set(), c.poses.view(), c.velocities.view(), c.state.view(), c.step.view(),
                 forces.view(), points.view());
    ContactStateLanes state = c.state;
    ContactForces(tree, c.set(), c.poses.view(), c.velocities.view(), c.accelerations.view(),
                  c.step.view(), state.view());
    std::vector<ContactStepLanes> steps;
    std::vector<RobotLanes> marks;
    for (bool may_release : {true, false}) {
      steps.push_back(c.step);
      // The last update sees every robot unsettled (marked), as the step's robots that reach it.
      marks.emplace_back(robots, 1, test::kContactPadding);
      marks.back().FillValid(may_release ? 0.0f : 1.0f);
      UpdateContactFlags(tree, c.set(), c.poses.view(), c.velocities.view(), c.accelerations.view(),
                         c.state.view(), may_release, steps.back().view(), marks.back().view());
    }
    for (size_t r = 0; r < robots; ++r) {
      INFO("robot " << r);
      for (size_t m = 0; m < contacts; ++m) {
        INFO("contact " << m);
        const size_t at = kAddedPointArrays * m;
        for (size_t k = 0; k < 3; ++k) {
          CHECK(std::fabs(points.At(at + k, r) - want_points[r * contacts + m][k]) <=
                kPointTolerance);
          CHECK(std::fabs(points.At(at + 3 + k, r) - want_normals[r * contacts + m][k]) <=
                kPointTolerance);
        }
      }
      if (skip[r]) continue;
      double scale = 1.0;
      for (double value : want_forces[r]) scale = std::max(scale, std::fabs(value));
      for (size_t k = 0; k < n; ++k) {
        INFO("generalised force " << k);
        CHECK(std::fabs(forces.At(k, r) - want_forces[r][k]) <= kForceTolerance * scale);
      }
      bool changed[2] = {false, false};
      for (size_t m = 0; m < contacts; ++m) {
        INFO("contact " << m);
        const ContactModel& model = models[r * contacts + m];
        const size_t at = kAddedPointArrays * m;
        CHECK(std::fabs(points.At(at + 6, r) - model.normal_mass) <=
              kMassTolerance * model.normal_mass);
        CHECK(std::fabs(points.At(at + 7, r) - model.tangent_mass) <=
              kMassTolerance * model.tangent_mass);
        CHECK(std::fabs(state.normal.At(m, r) - model.force.z) <= kForceTolerance * model.scale);
        for (size_t k = 0; k < 2; ++k) {
          CHECK(std::fabs(state.friction.At(2 * m + k, r) - model.force[k]) <=
                kForceTolerance * model.scale);
          CHECK(std::fabs(state.anchors.At(2 * m + k, r) - model.anchor[k]) <=
                kAnchorTolerance * model.anchor_scale);
        }
        CHECK(state.sliding.At(m, r) == (model.active && model.slides_next ? 1.0f : 0.0f));
        for (size_t release = 0; release < 2; ++release) {
          INFO((release == 0 ? "may release" : "last update"));
          CHECK(steps[release].flags.At(m, r) == model.flag[release]);
          CHECK(steps[release].slipping.At(m, r) == model.slip[release]);
          for (size_t k = 0; k < 2; ++k) {
            CHECK(std::fabs(steps[release].slip_forces.At(2 * m + k, r) -
                            model.slip_force[release][k]) <= kForceTolerance * model.scale);
          }
          changed[release] = changed[release] || model.changed[release];
        }
      }
      for (size_t release = 0; release < 2; ++release) {
        CHECK(marks[release].At(0, r) == (changed[release] || release == 1 ? 1.0f : 0.0f));
      }
    }
  });
}

TEST_CASE("point-contact kernels match a finite-difference double reference", "[dynamics]") {
  // Each robot as the fixture makes it, and in a second pass every robot in the first one's
  // configuration with the plane 2 mm above its first contact point, at five times the speeds:
  // that point arrives in the plane (above it one step ago) wherever it moves in faster than
  // 1 m/s.
  Seen seen;
  for (const TestRobot& robot : test::AllTestRobots()) {
    for (bool arrivals : {false, true}) {
      INFO(robot.name << (arrivals ? ", arrivals" : ", random states"));
      const KinematicTree tree = robot.tree();
      constexpr size_t kRobots = 64;
      ContactCase c = test::MakeContactCase(robot, kRobots, 77);
      c.forces.FillValid(0.0f);
      if (arrivals) {
        for (size_t k = 0; k < c.q.arrays(); ++k) {
          for (size_t r = 0; r < kRobots; ++r) c.q.At(k, r) = c.q.At(k, 0);
        }
        reference::ForwardKinematics(tree, c.q.view(), c.poses.view());
        const ContactPoint& first = c.contacts[0];
        c.ground.height = c.poses.At(kPoseArrays * first.link + 2, 0) - first.radius + 0.002f;
        test::UpdateGroundGeometry(c, tree);
        for (size_t k = 0; k < c.velocities.arrays(); ++k) {
          for (size_t r = 0; r < kRobots; ++r) c.velocities.At(k, r) *= 5.0f;
        }
        test::UpdatePointVelocities(c, tree);
      }
      CheckAgainstModel(robot, c, seen);
    }
  }
  // The comparisons saw contacts in every mode, branch and transition.
  INFO("touching " << seen.touching << " arriving " << seen.arriving << " hard " << seen.hard
                   << " capped " << seen.capped << " mass capped " << seen.mass_capped
                   << " released " << seen.released << " caught " << seen.caught << " dropped "
                   << seen.dropped << " stopped " << seen.stopped << " slipped " << seen.slipped
                   << " stuck " << seen.stuck);
  CHECK(seen.touching > 100);
  CHECK(seen.arriving > 5);
  CHECK(seen.hard > 20);
  CHECK(seen.capped > 20);
  CHECK(seen.mass_capped > 20);
  CHECK(seen.released > 5);
  CHECK(seen.caught > 5);
  CHECK(seen.dropped > 5);
  CHECK(seen.stopped > 5);
  CHECK(seen.slipped > 5);
  CHECK(seen.stuck > 5);
  CHECK(seen.stick_stick > 5);
  CHECK(seen.stick_slide > 5);
  CHECK(seen.slide_stick > 5);
  CHECK(seen.slide_slide > 5);
}

}  // namespace
}  // namespace swarm
