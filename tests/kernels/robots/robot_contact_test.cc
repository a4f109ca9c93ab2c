// Tests for the point-contact kernels of swarm/kernels/robots/robot_contact.h on the hand-built
// trees of tests/kernels/robots/robot_fixture.h (a floating quadruped, a gripper with prismatic and
// mimic joints, a UR5-like arm, a chain, a planar arm), contacts at every leaf and at a mid-chain
// link, on the ground and with random normals (tests/kernels/robots/contact_fixture.h):
//   - GroundContactGeometry, ContactVelocities, ContactTerms, UpdateContactFlags (with and without
//   releases) and
//     ContactForces bitwise against the scalar references
//     (swarm/kernels/robots/robot_contact_reference.h) on every compiled SIMD target and batch
//     size, with every normal-row flag and slip flag, padding untouched;
//   - ContactTangents: an orthonormal right-handed basis with the normal for normals in every
//     direction (1e-6), exactly x and y for +z;
//   - robots out of contact (and unflagged) get their input forces back to the bit (-0.0 too), no
//     added mass, no flag or mark changed, and their contact state reset (no force, sticking, no
//     anchor).
// tests/kernels/robots/robot_contact_model_test.cc checks the same kernels against a
// double-precision reference.
#include "swarm/kernels/robots/robot_contact.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <glm/glm.hpp>
#include <random>
#include <string>
#include <tuple>

#include "swarm/kernels/robots/robot_contact_reference.h"
#include "tests/kernels/robots/contact_fixture.h"
#include "tests/kernels/robots/robot_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ContactCase;
using test::ContactStateLanes;
using test::ContactStepLanes;
using test::RobotLanes;
using test::TestRobot;

constexpr float kPadding = test::kContactPadding;

// "" when every array of `got` has the bits of `want`, padding included.
std::string Difference(const RobotLanes& got, const RobotLanes& want) {
  const std::string values = test::FirstBitDifference(got, want);
  if (!values.empty()) return values;
  return got.PaddingMismatch(kPadding);
}

std::string Difference(const ContactStateLanes& got, const ContactStateLanes& want) {
  for (const auto& [g, w, name] : {std::tuple{&got.normal, &want.normal, "normal forces"},
                                   std::tuple{&got.friction, &want.friction, "friction forces"},
                                   std::tuple{&got.anchors, &want.anchors, "anchors"},
                                   std::tuple{&got.sliding, &want.sliding, "sliding"}}) {
    const std::string difference = Difference(*g, *w);
    if (!difference.empty()) return std::string(name) + ": " + difference;
  }
  return "";
}

std::string Difference(const ContactStepLanes& got, const ContactStepLanes& want) {
  for (const auto& [g, w, name] :
       {std::tuple{&got.flags, &want.flags, "flags"},
        std::tuple{&got.slipping, &want.slipping, "slipping"},
        std::tuple{&got.slip_forces, &want.slip_forces, "slip forces"}}) {
    const std::string difference = Difference(*g, *w);
    if (!difference.empty()) return std::string(name) + ": " + difference;
  }
  return "";
}

// Marks of 0 and 1 (UpdateContactFlags keeps them where nothing changed).
RobotLanes Marks(size_t count) {
  RobotLanes marks(count, 1, kPadding);
  for (size_t r = 0; r < count; ++r) marks.At(0, r) = r % 3 == 0 ? 1.0f : 0.0f;
  return marks;
}

TEST_CASE("point-contact kernels equal their references bitwise on every target", "[dynamics]") {
  size_t active = 0, changed = 0, slips = 0, sticks = 0;
  for (const TestRobot& robot : test::AllTestRobots()) {
    const KinematicTree tree = robot.tree();
    for (size_t count : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{300}}) {
      INFO(robot.name << ", " << count << " robots");
      ContactCase c = test::MakeContactCase(robot, count, 5u + static_cast<uint32_t>(count));
      const size_t contacts = c.contacts.size();
      RobotLanes want_forces = c.forces;
      RobotLanes want_points(count, kAddedPointArrays * contacts, kPadding);
      reference::ContactTerms(tree, c.set(), c.poses.view(), c.velocities.view(), c.state.view(),
                              c.step.view(), want_forces.view(), want_points.view());
      ContactStateLanes want_state = c.state;
      reference::ContactForces(tree, c.set(), c.poses.view(), c.velocities.view(),
                               c.accelerations.view(), c.step.view(), want_state.view());
      RobotLanes want_velocities(count, kContactVelocityArrays * contacts, kPadding);
      reference::ContactVelocities(tree, c.set(), c.poses.view(), c.velocities.view(),
                                   want_velocities.view());
      RobotLanes want_geometry(count, kContactArrays * contacts, kPadding);
      reference::GroundContactGeometry(tree, c.contacts.data(), contacts, c.ground.height,
                                       c.poses.view(), want_geometry.view());
      for (size_t n = 0; n < contacts; ++n) {
        for (size_t r = 0; r < count; ++r)
          active += want_points.At(kAddedPointArrays * n + 6, r) > 0;
      }
      for (bool may_release : {true, false}) {
        INFO("may_release " << may_release);
        ContactStepLanes want_step = c.step;
        RobotLanes want_marks = Marks(count);
        const bool want_any = reference::UpdateContactFlags(
            tree, c.set(), c.poses.view(), c.velocities.view(), c.accelerations.view(),
            c.state.view(), may_release, want_step.view(), want_marks.view());
        changed += want_any;
        for (size_t n = 0; n < contacts; ++n) {
          for (size_t r = 0; r < count; ++r) {
            const float before = c.step.slipping.At(n, r), after = want_step.slipping.At(n, r);
            slips += after != before && after == kContactSlipping;
            sticks += after != before && after == kContactSticking;
          }
        }
        test::ForEachTarget([&](const test::TargetUnderTest& target) {
          INFO("target " << target.name);
          ContactStepLanes step = c.step;
          RobotLanes marks = Marks(count);
          const bool any = UpdateContactFlags(tree, c.set(), c.poses.view(), c.velocities.view(),
                                              c.accelerations.view(), c.state.view(), may_release,
                                              step.view(), marks.view());
          CHECK(Difference(step, want_step) == "");
          CHECK(Difference(marks, want_marks) == "");
          CHECK(any == want_any);
        });
      }
      test::ForEachTarget([&](const test::TargetUnderTest& target) {
        INFO("target " << target.name);
        RobotLanes forces = c.forces;
        RobotLanes points(count, kAddedPointArrays * contacts, kPadding);
        ContactTerms(tree, c.set(), c.poses.view(), c.velocities.view(), c.state.view(),
                     c.step.view(), forces.view(), points.view());
        ContactStateLanes state = c.state;
        ContactForces(tree, c.set(), c.poses.view(), c.velocities.view(), c.accelerations.view(),
                      c.step.view(), state.view());
        RobotLanes geometry(count, kContactArrays * contacts, kPadding);
        GroundContactGeometry(tree, c.contacts.data(), contacts, c.ground.height, c.poses.view(),
                              geometry.view());
        CHECK(Difference(forces, want_forces) == "");
        CHECK(Difference(points, want_points) == "");
        CHECK(Difference(state, want_state) == "");
        CHECK(Difference(geometry, want_geometry) == "");
        RobotLanes velocities(count, kContactVelocityArrays * contacts, kPadding);
        ContactVelocities(tree, c.set(), c.poses.view(), c.velocities.view(), velocities.view());
        CHECK(Difference(velocities, want_velocities) == "");
      });
    }
  }
  // The comparisons saw active contacts, flag changes, slips and sticks.
  CHECK(active > 500);
  CHECK(changed > 20);
  CHECK(slips > 50);
  CHECK(sticks > 50);
}

TEST_CASE("contact tangents are an orthonormal basis with the normal, x and y for +z",
          "[dynamics]") {
  const float up[3] = {0.0f, 0.0f, 1.0f};
  float t1[3], t2[3];
  ContactTangents(up, t1, t2);
  CHECK((t1[0] == 1.0f && t1[1] == 0.0f && t1[2] == 0.0f));
  CHECK((t2[0] == 0.0f && t2[1] == 1.0f && t2[2] == 0.0f));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    glm::dvec3 normal(unit(rng), unit(rng), unit(rng));
    if (trial < 6) normal = glm::dvec3(0.0);
    if (trial < 6) normal[trial % 3] = trial < 3 ? 1.0 : -1.0;
    if (glm::length(normal) < 1e-3) continue;
    normal = glm::normalize(normal);
    const float n[3] = {float(normal.x), float(normal.y), float(normal.z)};
    ContactTangents(n, t1, t2);
    const glm::dvec3 a(t1[0], t1[1], t1[2]), b(t2[0], t2[1], t2[2]);
    const glm::dvec3 c(n[0], n[1], n[2]);
    INFO("normal " << n[0] << " " << n[1] << " " << n[2]);
    CHECK(std::fabs(glm::length(a) - 1.0) < 1e-6);
    CHECK(std::fabs(glm::length(b) - 1.0) < 1e-6);
    CHECK(std::fabs(glm::dot(a, b)) < 1e-6);
    CHECK(std::fabs(glm::dot(a, c)) < 1e-6);
    CHECK(std::fabs(glm::dot(b, c)) < 1e-6);
    CHECK(glm::length(glm::cross(a, b) - c) < 1e-6);
  }
}

TEST_CASE("robots out of contact keep their forces to the bit and reset their contacts",
          "[dynamics]") {
  const TestRobot robot = test::QuadrupedRobot();
  const KinematicTree tree = robot.tree();
  const size_t robots = 40;
  ContactCase c = test::MakeContactCase(robot, robots, 9);
  c.ground.height = -100.0f;  // far below every robot
  test::UpdateGroundGeometry(c, tree);
  for (size_t n = 1; n < c.contacts.size(); n += 2) {
    for (size_t r = 0; r < robots; ++r) c.geometry.At(kContactArrays * n, r) = kNoContact;
  }
  test::UpdatePointVelocities(c, tree);
  c.step.flags.FillValid(0.0f);
  c.step.slipping.FillValid(0.0f);
  for (size_t k = 0; k < c.forces.arrays(); ++k) {
    for (size_t r = 0; r < robots; ++r) c.forces.At(k, r) = r % 2 ? -0.0f : 1.5f;
  }
  const size_t contacts = c.contacts.size();
  test::ForEachTarget([&](const test::TargetUnderTest& target) {
    INFO("target " << target.name);
    RobotLanes forces = c.forces;
    RobotLanes points(robots, kAddedPointArrays * contacts, kPadding);
    ContactTerms(tree, c.set(), c.poses.view(), c.velocities.view(), c.state.view(), c.step.view(),
                 forces.view(), points.view());
    CHECK(test::FirstBitDifference(forces, c.forces) == "");
    ContactStepLanes step = c.step;
    RobotLanes marks = Marks(robots);
    CHECK_FALSE(UpdateContactFlags(tree, c.set(), c.poses.view(), c.velocities.view(),
                                   c.accelerations.view(), c.state.view(), true, step.view(),
                                   marks.view()));
    CHECK(Difference(step, c.step) == "");
    CHECK(Difference(marks, Marks(robots)) == "");
    ContactStateLanes state = c.state;
    ContactForces(tree, c.set(), c.poses.view(), c.velocities.view(), c.accelerations.view(),
                  c.step.view(), state.view());
    for (size_t n = 0; n < contacts; ++n) {
      for (size_t r = 0; r < robots; ++r) {
        INFO("contact " << n << " robot " << r);
        CHECK(points.At(kAddedPointArrays * n + 6, r) == 0.0f);
        CHECK(points.At(kAddedPointArrays * n + 7, r) == 0.0f);
        CHECK(state.normal.At(n, r) == 0.0f);
        CHECK(state.sliding.At(n, r) == 0.0f);
        for (size_t k = 0; k < 2; ++k) {
          CHECK(state.friction.At(2 * n + k, r) == 0.0f);
          CHECK(state.anchors.At(2 * n + k, r) == 0.0f);
        }
      }
    }
  });
}

}  // namespace
}  // namespace swarm
