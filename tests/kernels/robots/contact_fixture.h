// Test fixture of the point-contact kernels (swarm/kernels/robots/robot_contact.h) on the
// hand-built trees of tests/kernels/robots/robot_fixture.h: contacts at every leaf link and at a
// mid-chain link (each with a random link frame in a made-up body frame), seeded random
// configurations, velocities, accelerations and contact states (previous normal forces of both
// signs and zero, friction forces, anchors, half the contacts sliding), the step's flags (every
// normal-row flag, both slip flags, slip forces). Even contacts are ground contacts, against the
// plane 1 cm above the mean height of their points (so that about half of them touch); odd ones
// have random geometry per robot, as the narrow phase gives it: a point near the link's origin, a
// unit normal in any direction (a few exactly +z or -z) and a distance of either sign, with their
// own friction, margin and soft constraint, a stiff one (dmax 0.9999, the regulariser scaled by
// 0.05) whose virtual mass the contacts' cap bounds where they are deep.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>
#include <vector>

#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "swarm/kernels/robots/robot_contact.h"
#include "swarm/kernels/robots/robot_contact_reference.h"
#include "swarm/kernels/robots/robot_kinematics_reference.h"
#include "tests/kernels/robots/robot_fixture.h"

namespace swarm::test {

inline constexpr float kContactPadding = -7.25f;
inline constexpr float kContactDt = 0.002f;

// Every leaf link (radius 0.03) and one link in the middle of the tree (radius 0), with random
// link frames in their bodies and reference inverse inertias.
inline std::vector<ContactPoint> Contacts(const KinematicTree& tree, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<bool> has_child(tree.link_count(), false);
  for (size_t j = 0; j < tree.joint_count; ++j) has_child[tree.joints[j].parent_link] = true;
  std::vector<uint32_t> links;
  for (uint32_t l = 0; l < tree.link_count(); ++l) {
    if (!has_child[l]) links.push_back(l);
  }
  links.push_back(static_cast<uint32_t>(tree.link_count() / 2));
  std::vector<ContactPoint> contacts;
  for (size_t k = 0; k < links.size(); ++k) {
    ContactPoint contact;
    contact.link = links[k];
    contact.radius = k + 1 < links.size() ? 0.03f : 0.0f;
    contact.body = links[k];
    const glm::dmat3 rotation = glm::mat3_cast(
        glm::normalize(glm::dquat(unit(rng), unit(rng), unit(rng), unit(rng) + 1.5)));
    for (int row = 0; row < 3; ++row) {
      for (int col = 0; col < 3; ++col) {
        contact.link_rotation[3 * row + col] = static_cast<float>(rotation[col][row]);
      }
      contact.link_origin[row] = static_cast<float>(0.2 * unit(rng));
    }
    contact.inverse_inertia0 = static_cast<float>(2.6 + 2.4 * unit(rng));
    contacts.push_back(contact);
  }
  return contacts;
}

// The state arrays of ContactState, owned.
struct ContactStateLanes {
  ContactStateLanes(size_t robots, size_t contacts)
      : normal(robots, contacts, kContactPadding),
        friction(robots, 2 * contacts, kContactPadding),
        anchors(robots, 2 * contacts, kContactPadding),
        sliding(robots, contacts, kContactPadding) {}
  ContactState view() { return {normal.view(), friction.view(), anchors.view(), sliding.view()}; }
  RobotLanes normal, friction, anchors, sliding;
};

// The arrays of ContactStep, owned.
struct ContactStepLanes {
  ContactStepLanes(size_t robots, size_t contacts)
      : flags(robots, contacts, kContactPadding),
        slipping(robots, contacts, kContactPadding),
        slip_forces(robots, 2 * contacts, kContactPadding) {}
  ContactStep view() { return {flags.view(), slipping.view(), slip_forces.view()}; }
  RobotLanes flags, slipping, slip_forces;
};

struct ContactCase {
  RobotLanes q, poses, velocities, accelerations, forces;
  std::vector<ContactPoint> contacts;
  GroundContact ground;
  std::vector<SoftConstraint> softs;          // per contact
  std::vector<ContactParameters> parameters;  // per contact, for kContactDt
  RobotLanes geometry;                        // kContactArrays per contact
  RobotLanes point_velocities;                // kContactVelocityArrays per contact
  ContactStateLanes state;
  ContactStepLanes step;

  static bool OnGround(size_t contact) { return contact % 2 == 0; }
  ContactSet set() const {
    return {contacts.data(), parameters.data(), contacts.size(), geometry.view(),
            point_velocities.view()};
  }
};

// The point velocities of the case's geometry, poses and velocities (reference::
// ContactVelocities): after anything they depend on changes.
inline void UpdatePointVelocities(ContactCase& c, const KinematicTree& tree) {
  reference::ContactVelocities(tree, c.set(), c.poses.view(), c.velocities.view(),
                               c.point_velocities.view());
}

// The ground contacts' geometry (reference::GroundContactGeometry per contact) from c.poses.
inline void UpdateGroundGeometry(ContactCase& c, const KinematicTree& tree) {
  const size_t robots = c.q.count();
  RobotLanes one(robots, kContactArrays, kContactPadding);
  for (size_t n = 0; n < c.contacts.size(); n += 2) {
    reference::GroundContactGeometry(tree, &c.contacts[n], 1, c.ground.height, c.poses.view(),
                                     one.view());
    for (size_t k = 0; k < kContactArrays; ++k) {
      for (size_t r = 0; r < robots; ++r) c.geometry.At(kContactArrays * n + k, r) = one.At(k, r);
    }
  }
}

// The soft constraint of the tests: a 0.2 m wide impedance, so that random penetrations fall on
// both sides of its transition.
inline SoftConstraint ContactSoftConstraint() {
  SoftConstraint soft;
  soft.width = 0.2f;
  soft.midpoint = 0.4f;
  soft.power = 3;
  return soft;
}

inline ContactCase MakeContactCase(const TestRobot& robot, size_t count, uint32_t seed) {
  const KinematicTree tree = robot.tree();
  std::mt19937 rng(seed + 1);
  const size_t velocity_count = ContactVelocityCount(tree);
  std::vector<ContactPoint> contacts = Contacts(tree, rng);
  const size_t contact_count = contacts.size();
  ContactCase c{RandomQ(robot, count, seed, kContactPadding),
                RobotLanes(count, kPoseArrays * tree.link_count(), kContactPadding),
                RobotLanes(count, velocity_count, kContactPadding),
                RobotLanes(count, velocity_count, kContactPadding),
                RobotLanes(count, velocity_count, kContactPadding),
                std::move(contacts),
                {},
                {},
                {},
                RobotLanes(count, kContactArrays * contact_count, kContactPadding),
                RobotLanes(count, kContactVelocityArrays * contact_count, kContactPadding),
                ContactStateLanes(count, contact_count),
                ContactStepLanes(count, contact_count)};
  reference::ForwardKinematics(tree, c.q.view(), c.poses.view());
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (size_t k = 0; k < velocity_count; ++k) {
    for (size_t r = 0; r < count; ++r) {
      c.velocities.At(k, r) = 2.0f * unit(rng);
      c.accelerations.At(k, r) = 3000.0f * unit(rng);  // dt a of either sign against v
      c.forces.At(k, r) = 10.0f * unit(rng);
    }
  }
  for (size_t n = 0; n < contact_count; ++n) {
    for (size_t r = 0; r < count; ++r) {
      const float pick = unit(rng);
      c.state.normal.At(n, r) = pick < -0.4f ? 0.0f : 150.0f * unit(rng) + 50.0f;
      c.state.sliding.At(n, r) = unit(rng) < 0.0f ? 1.0f : 0.0f;
      for (size_t k = 0; k < 2; ++k) {
        c.state.friction.At(2 * n + k, r) = 30.0f * unit(rng);
        c.state.anchors.At(2 * n + k, r) = 2e-3f * unit(rng);
      }
      // Half the rows unflagged (the step's first solve), the rest any flag; a third of the
      // contacts slipping or sticking for the step, with a slip force.
      const float flag = unit(rng);
      c.step.flags.At(n, r) = flag < 0.0f   ? 0.0f
                              : flag < 0.2f ? kRowReleased
                              : flag < 0.5f ? kRowCaught
                              : flag < 0.7f ? kRowDropped
                                            : kRowStopped;
      const float slip = unit(rng);
      c.step.slipping.At(n, r) =
          slip < 0.33f ? 0.0f : (slip < 0.66f ? kContactSlipping : kContactSticking);
      for (size_t k = 0; k < 2; ++k) c.step.slip_forces.At(2 * n + k, r) = 40.0f * unit(rng);
    }
  }
  double height = 0.0;
  size_t ground_contacts = 0;
  for (size_t n = 0; n < contact_count; n += 2, ++ground_contacts) {
    const ContactPoint& contact = c.contacts[n];
    for (size_t r = 0; r < count; ++r) {
      height += c.poses.At(kPoseArrays * contact.link + 2, r) - contact.radius;
    }
  }
  // 1 cm above the mean: a planar robot's contacts are all at one height.
  c.ground.height =
      static_cast<float>(height / double(std::max<size_t>(1, count * ground_contacts)) + 0.01);
  c.ground.friction = 0.7f;
  c.ground.soft = ContactSoftConstraint();
  for (size_t n = 0; n < contact_count; ++n) {
    SoftConstraint soft = c.ground.soft;
    ContactParameters parameters;
    parameters.friction = c.ground.friction;
    if (!ContactCase::OnGround(n)) {
      // Stiff, as the Menagerie's feet under a pyramidal cone: the virtual mass cap binds at depth.
      soft.time_constant = 0.03f;
      soft.damping_ratio = 0.8f;
      soft.impedance_max = 0.9999f;
      soft.max_mass_ratio = kContactMaxMassRatio;
      parameters.friction = 0.45f;
      parameters.margin = 0.01f;
      parameters.regulariser_scale = 0.05f;
    }
    parameters.normal = PrepareSoftConstraint(soft, kContactDt);
    c.softs.push_back(soft);
    c.parameters.push_back(parameters);
  }
  UpdateGroundGeometry(c, tree);
  for (size_t n = 1; n < contact_count; n += 2) {
    const size_t link = c.contacts[n].link, at = kContactArrays * n;
    for (size_t r = 0; r < count; ++r) {
      glm::dvec3 normal(unit(rng), unit(rng), unit(rng));
      const float pick = unit(rng);
      if (pick > 0.8f) normal = {0.0, 0.0, pick > 0.9f ? 1.0 : -1.0};
      if (glm::length(normal) < 1e-3) normal = {1.0, 0.0, 0.0};
      normal = glm::normalize(normal);
      c.geometry.At(at, r) = 0.06f * unit(rng);
      for (size_t k = 0; k < 3; ++k) {
        c.geometry.At(at + 1 + k, r) = c.poses.At(kPoseArrays * link + k, r) + 0.05f * unit(rng);
        c.geometry.At(at + 4 + k, r) = static_cast<float>(normal[static_cast<int>(k)]);
      }
    }
  }
  UpdatePointVelocities(c, tree);
  return c;
}

// Robot q moved by h along velocity v (ContactVelocityCount entries): joint columns by h v, a
// floating base's position by h R v_linear and its orientation by the rotation h w_body (applied
// on the right: a body-frame rate).
inline std::vector<double> Advance(const TestRobot& robot, std::vector<double> q,
                                   const std::vector<double>& v, double h) {
  const KinematicTree tree = robot.tree();
  size_t velocity = 0;
  if (tree.floating_base) {
    glm::dquat rotation = glm::normalize(glm::dquat(q[3], q[4], q[5], q[6]));
    const glm::dvec3 linear = glm::mat3_cast(rotation) * glm::dvec3(v[0], v[1], v[2]);
    for (int k = 0; k < 3; ++k) q[k] += h * linear[k];
    const glm::dvec3 rate(v[3], v[4], v[5]);
    const double speed = glm::length(rate);
    if (speed > 0.0) rotation = rotation * glm::angleAxis(h * speed, rate / speed);
    q[3] = rotation.w, q[4] = rotation.x, q[5] = rotation.y, q[6] = rotation.z;
    velocity = 6;
  }
  for (size_t j = 0; j < tree.joint_q_count(); ++j) {
    q[tree.joint_q_begin() + j] += h * v[velocity + j];
  }
  return q;
}

// d/dh, by central differences, of the material point of the contact's link that is at `point`
// for q (fixed in the link as q moves along v).
inline glm::dvec3 PointVelocity(const TestRobot& robot, const std::vector<double>& q,
                                const std::vector<double>& v, const ContactPoint& contact,
                                const glm::dvec3& point) {
  constexpr double h = 1e-6;
  const glm::dvec4 local =
      glm::inverse(DoubleForwardKinematics(robot, q)[contact.link]) * glm::dvec4(point, 1.0);
  const auto at = [&](double step) {
    return glm::dvec3(DoubleForwardKinematics(robot, Advance(robot, q, v, step))[contact.link] *
                      local);
  };
  return (at(h) - at(-h)) / (2.0 * h);
}

}  // namespace swarm::test
