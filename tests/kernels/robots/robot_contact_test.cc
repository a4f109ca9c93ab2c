// Tests for the ground-contact kernel of swarm/kernels/robots/robot_contact.h on the hand-built
// trees of tests/kernels/robots/robot_fixture.h (a floating quadruped, a gripper with prismatic and
// mimic joints, a UR5-like arm, a chain, a planar arm), contacts at every leaf and at a mid-chain
// link:
//   - bitwise against the scalar reference on every compiled SIMD target and batch size, padding
//     untouched, robots out of contact getting their input forces back to the bit (-0.0 too);
//   - against a double-precision reference built independently of the kernel's Jacobian walk: the
//     contact point from the matrix forward kinematics, the velocity of the link's material point
//     there and every generalised-force column from central differences of that point's position
//     along the configuration moved by each velocity coordinate (a floating base turned by its
//     body rate), and the force law in double.
//     Tolerance: 1e-4 of the largest generalised force of the robot (float32 poses of points up
//     to 3 m from the origin round to 2e-7 m, which the stiffness turns into ~1e-6 of the force);
//     contacts within 1e-5 m of touching, or whose spring is within 1e-3 of changing sign, are
//     left out (float and double may disagree on whether they touch).
#include "swarm/kernels/robots/robot_contact.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "swarm/kernels/robots/robot_contact_reference.h"
#include "swarm/kernels/robots/robot_kinematics_reference.h"
#include "tests/kernels/robots/robot_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::RobotLanes;
using test::TestRobot;

constexpr float kPadding = -7.25f;

// Every leaf link (radius 0.03) and one link in the middle of the tree (radius 0).
std::vector<ContactPoint> Contacts(const KinematicTree& tree) {
  std::vector<bool> has_child(tree.link_count(), false);
  for (size_t j = 0; j < tree.joint_count; ++j) has_child[tree.joints[j].parent_link] = true;
  std::vector<ContactPoint> contacts;
  for (uint32_t l = 0; l < tree.link_count(); ++l) {
    if (!has_child[l]) contacts.push_back({l, 0.03f});
  }
  contacts.push_back({static_cast<uint32_t>(tree.link_count() / 2), 0.0f});
  return contacts;
}

struct ContactCase {
  RobotLanes q, poses, velocities, forces;
  std::vector<ContactPoint> contacts;
  GroundContact ground;
};

// Random configurations and velocities; the ground at the mean height of the contact points, so
// about half of them touch, and random input forces (which the kernel adds to).
ContactCase MakeCase(const TestRobot& robot, size_t count, uint32_t seed) {
  const KinematicTree tree = robot.tree();
  ContactCase c{test::RandomQ(robot, count, seed, kPadding),
                RobotLanes(count, kPoseArrays * tree.link_count(), kPadding),
                RobotLanes(count, ContactVelocityCount(tree), kPadding),
                RobotLanes(count, ContactVelocityCount(tree), kPadding),
                Contacts(tree),
                {}};
  reference::ForwardKinematics(tree, c.q.view(), c.poses.view());
  std::mt19937 rng(seed + 1);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (size_t k = 0; k < c.velocities.arrays(); ++k) {
    for (size_t r = 0; r < count; ++r) {
      c.velocities.At(k, r) = 2.0f * unit(rng);
      c.forces.At(k, r) = 10.0f * unit(rng);
    }
  }
  double height = 0.0;
  for (const ContactPoint& contact : c.contacts) {
    for (size_t r = 0; r < count; ++r) {
      height += c.poses.At(kPoseArrays * contact.link + 2, r) - contact.radius;
    }
  }
  c.ground = {static_cast<float>(height / double(std::max<size_t>(1, count * c.contacts.size()))),
              1000.0f, 20.0f, 0.7f, 0.05f};
  return c;
}

TEST_CASE("AddGroundContactForces equals its reference bitwise on every target", "[dynamics]") {
  for (const TestRobot& robot : test::AllTestRobots()) {
    const KinematicTree tree = robot.tree();
    for (size_t count : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{300}}) {
      INFO(robot.name << ", " << count << " robots");
      ContactCase c = MakeCase(robot, count, 5u + static_cast<uint32_t>(count));
      RobotLanes want = c.forces;
      RobotLanes want_normal(count, c.contacts.size(), kPadding);
      reference::AddGroundContactForces(tree, c.contacts.data(), c.contacts.size(), c.ground,
                                        c.poses.view(), c.velocities.view(), want.view(),
                                        want_normal.view());
      test::ForEachTarget([&](const test::TargetUnderTest& target) {
        INFO("target " << target.name);
        RobotLanes got = c.forces;
        RobotLanes got_normal(count, c.contacts.size(), kPadding);
        AddGroundContactForces(tree, c.contacts.data(), c.contacts.size(), c.ground, c.poses.view(),
                               c.velocities.view(), got.view(), got_normal.view());
        CHECK(test::FirstBitDifference(got, want) == "");
        CHECK(test::FirstBitDifference(got_normal, want_normal) == "");
        CHECK(got.PaddingMismatch(kPadding) == "");
        CHECK(got_normal.PaddingMismatch(kPadding) == "");
      });
    }
  }
}

TEST_CASE("AddGroundContactForces leaves robots out of contact untouched to the bit",
          "[dynamics]") {
  const TestRobot robot = test::QuadrupedRobot();
  const KinematicTree tree = robot.tree();
  ContactCase c = MakeCase(robot, 40, 9);
  c.ground.height = -100.0f;  // far below every robot
  for (size_t k = 0; k < c.forces.arrays(); ++k) {
    for (size_t r = 0; r < 40; ++r) c.forces.At(k, r) = r % 2 ? -0.0f : 1.5f;
  }
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    RobotLanes got = c.forces;
    RobotLanes normal(40, c.contacts.size(), kPadding);
    AddGroundContactForces(tree, c.contacts.data(), c.contacts.size(), c.ground, c.poses.view(),
                           c.velocities.view(), got.view(), normal.view());
    CHECK(test::FirstBitDifference(got, c.forces) == "");
    for (size_t n = 0; n < c.contacts.size(); ++n) {
      for (size_t r = 0; r < 40; ++r) CHECK(normal.At(n, r) == 0.0f);
    }
  });
}

// --- The double-precision reference ------------------------------------------------------------

// Robot q moved by h along velocity v (ContactVelocityCount entries): joint columns by h v, a
// floating base's position by h R v_linear and its orientation by the rotation h w_body (applied
// on the right: a body-frame rate).
std::vector<double> Advance(const TestRobot& robot, std::vector<double> q,
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
  for (size_t j = 0; j < tree.joint_q_count(); ++j)
    q[tree.joint_q_begin() + j] += h * v[velocity + j];
  return q;
}

glm::dvec3 ContactPointOf(const TestRobot& robot, const std::vector<double>& q,
                          const ContactPoint& contact) {
  const glm::dmat4 pose = test::DoubleForwardKinematics(robot, q)[contact.link];
  return glm::dvec3(pose[3]) - glm::dvec3(0.0, 0.0, contact.radius);
}

// d/dh, by central differences, of the material point of the contact's link that is at the
// contact point for q (the sphere's lowest point, fixed in the link as q moves along v).
glm::dvec3 PointVelocity(const TestRobot& robot, const std::vector<double>& q,
                         const std::vector<double>& v, const ContactPoint& contact) {
  constexpr double h = 1e-6;
  const glm::dvec4 local = glm::inverse(test::DoubleForwardKinematics(robot, q)[contact.link]) *
                           glm::dvec4(ContactPointOf(robot, q, contact), 1.0);
  const auto at = [&](double step) {
    return glm::dvec3(
        test::DoubleForwardKinematics(robot, Advance(robot, q, v, step))[contact.link] * local);
  };
  return (at(h) - at(-h)) / (2.0 * h);
}

TEST_CASE("AddGroundContactForces matches a finite-difference double reference", "[dynamics]") {
  for (const TestRobot& robot : test::AllTestRobots()) {
    const KinematicTree tree = robot.tree();
    constexpr size_t kRobots = 64;
    ContactCase c = MakeCase(robot, kRobots, 77);
    c.forces.FillValid(0.0f);
    RobotLanes normal(kRobots, c.contacts.size(), kPadding);
    AddGroundContactForces(tree, c.contacts.data(), c.contacts.size(), c.ground, c.poses.view(),
                           c.velocities.view(), c.forces.view(), normal.view());
    const size_t n = ContactVelocityCount(tree);
    size_t touching = 0;
    for (size_t r = 0; r < kRobots; ++r) {
      INFO(robot.name << ", robot " << r);
      // The float configuration normalised like the kernels do, in double.
      std::vector<double> q = test::RobotQ(c.q, r);
      std::vector<double> v(n), want(n, 0.0);
      for (size_t k = 0; k < n; ++k) v[k] = c.velocities.At(k, r);
      bool ambiguous = false;
      std::vector<double> want_normal(c.contacts.size(), 0.0);
      for (size_t m = 0; m < c.contacts.size(); ++m) {
        const ContactPoint& contact = c.contacts[m];
        const glm::dvec3 point = ContactPointOf(robot, q, contact);
        const double depth = double(c.ground.height) - point.z;
        const glm::dvec3 velocity = PointVelocity(robot, q, v, contact);
        const double spring = double(c.ground.stiffness) * depth - c.ground.damping * velocity.z;
        if (std::fabs(depth) < 1e-5 || (depth > 0.0 && std::fabs(spring) < 1e-3)) {
          ambiguous = true;
          break;
        }
        if (depth <= 0.0 || spring <= 0.0) continue;
        ++touching;
        const double slip = double(c.ground.slip_velocity);
        const double scale =
            double(c.ground.friction) * spring /
            std::sqrt(velocity.x * velocity.x + velocity.y * velocity.y + slip * slip);
        const glm::dvec3 force(-scale * velocity.x, -scale * velocity.y, spring);
        want_normal[m] = spring;
        for (size_t k = 0; k < n; ++k) {
          std::vector<double> unit(n, 0.0);
          unit[k] = 1.0;
          want[k] += glm::dot(force, PointVelocity(robot, q, unit, contact));
        }
      }
      if (ambiguous) continue;
      double scale = 1.0;
      for (double value : want) scale = std::max(scale, std::fabs(value));
      for (double value : want_normal) scale = std::max(scale, value);
      for (size_t k = 0; k < n; ++k) {
        INFO("generalised force " << k);
        CHECK(std::fabs(c.forces.At(k, r) - want[k]) < 1e-4 * scale);
      }
      for (size_t m = 0; m < c.contacts.size(); ++m) {
        INFO("normal force of contact " << m);
        CHECK(std::fabs(normal.At(m, r) - want_normal[m]) < 1e-4 * scale);
      }
    }
    INFO(robot.name);
    CHECK(touching > kRobots / 4);  // the comparison saw contacts
  }
}

}  // namespace
}  // namespace swarm
