// Tests for the ground-contact kernels of swarm/kernels/robots/robot_contact.h on the hand-built
// trees of tests/kernels/robots/robot_fixture.h (a floating quadruped, a gripper with prismatic and
// mimic joints, a UR5-like arm, a chain, a planar arm), contacts at every leaf and at a mid-chain
// link (tests/kernels/robots/contact_fixture.h):
//   - GroundContactTerms, UpdateContactFlags (with and without releases) and GroundContactForces
//     bitwise against the scalar references (swarm/kernels/robots/robot_contact_reference.h) on
//     every compiled SIMD target and batch size, with every normal-row flag and slip flag, padding
//     untouched;
//   - robots out of contact (and unflagged) get their input forces back to the bit (-0.0 too), no
//     added mass, no flag or mark changed, and their contact state reset (no force, sticking, no
//     anchor).
// tests/kernels/robots/robot_contact_model_test.cc checks the same kernels against a
// double-precision reference.
#include "swarm/kernels/robots/robot_contact.h"

#include <catch2/catch.hpp>
#include <cstddef>
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

TEST_CASE("ground-contact kernels equal their references bitwise on every target", "[dynamics]") {
  size_t active = 0, changed = 0, slips = 0, sticks = 0;
  for (const TestRobot& robot : test::AllTestRobots()) {
    const KinematicTree tree = robot.tree();
    for (size_t count : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{300}}) {
      INFO(robot.name << ", " << count << " robots");
      ContactCase c = test::MakeContactCase(robot, count, 5u + static_cast<uint32_t>(count));
      const size_t contacts = c.contacts.size();
      RobotLanes want_forces = c.forces;
      RobotLanes want_points(count, kAddedPointArrays * contacts, kPadding);
      reference::GroundContactTerms(tree, c.contacts.data(), contacts, c.ground, c.normal,
                                    c.poses.view(), c.velocities.view(), c.state.view(),
                                    c.step.view(), want_forces.view(), want_points.view());
      ContactStateLanes want_state = c.state;
      reference::GroundContactForces(tree, c.contacts.data(), contacts, c.ground, c.normal,
                                     c.poses.view(), c.velocities.view(), c.accelerations.view(),
                                     c.step.view(), want_state.view());
      for (size_t n = 0; n < contacts; ++n) {
        for (size_t r = 0; r < count; ++r)
          active += want_points.At(kAddedPointArrays * n + 6, r) > 0;
      }
      for (bool may_release : {true, false}) {
        INFO("may_release " << may_release);
        ContactStepLanes want_step = c.step;
        RobotLanes want_marks = Marks(count);
        const bool want_any = reference::UpdateContactFlags(
            tree, c.contacts.data(), contacts, c.ground, c.normal, c.poses.view(),
            c.velocities.view(), c.accelerations.view(), c.state.view(), may_release,
            want_step.view(), want_marks.view());
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
          const bool any =
              UpdateContactFlags(tree, c.contacts.data(), contacts, c.ground, c.normal,
                                 c.poses.view(), c.velocities.view(), c.accelerations.view(),
                                 c.state.view(), may_release, step.view(), marks.view());
          CHECK(Difference(step, want_step) == "");
          CHECK(Difference(marks, want_marks) == "");
          CHECK(any == want_any);
        });
      }
      test::ForEachTarget([&](const test::TargetUnderTest& target) {
        INFO("target " << target.name);
        RobotLanes forces = c.forces;
        RobotLanes points(count, kAddedPointArrays * contacts, kPadding);
        GroundContactTerms(tree, c.contacts.data(), contacts, c.ground, c.normal, c.poses.view(),
                           c.velocities.view(), c.state.view(), c.step.view(), forces.view(),
                           points.view());
        ContactStateLanes state = c.state;
        GroundContactForces(tree, c.contacts.data(), contacts, c.ground, c.normal, c.poses.view(),
                            c.velocities.view(), c.accelerations.view(), c.step.view(),
                            state.view());
        CHECK(Difference(forces, want_forces) == "");
        CHECK(Difference(points, want_points) == "");
        CHECK(Difference(state, want_state) == "");
      });
    }
  }
  // The comparisons saw active contacts, flag changes, slips and sticks.
  CHECK(active > 500);
  CHECK(changed > 20);
  CHECK(slips > 50);
  CHECK(sticks > 50);
}

TEST_CASE("robots out of contact keep their forces to the bit and reset their contacts",
          "[dynamics]") {
  const TestRobot robot = test::QuadrupedRobot();
  const KinematicTree tree = robot.tree();
  const size_t robots = 40;
  ContactCase c = test::MakeContactCase(robot, robots, 9);
  c.ground.height = -100.0f;  // far below every robot
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
    GroundContactTerms(tree, c.contacts.data(), contacts, c.ground, c.normal, c.poses.view(),
                       c.velocities.view(), c.state.view(), c.step.view(), forces.view(),
                       points.view());
    CHECK(test::FirstBitDifference(forces, c.forces) == "");
    ContactStepLanes step = c.step;
    RobotLanes marks = Marks(robots);
    CHECK_FALSE(UpdateContactFlags(tree, c.contacts.data(), contacts, c.ground, c.normal,
                                   c.poses.view(), c.velocities.view(), c.accelerations.view(),
                                   c.state.view(), true, step.view(), marks.view()));
    CHECK(Difference(step, c.step) == "");
    CHECK(Difference(marks, Marks(robots)) == "");
    ContactStateLanes state = c.state;
    GroundContactForces(tree, c.contacts.data(), contacts, c.ground, c.normal, c.poses.view(),
                        c.velocities.view(), c.accelerations.view(), c.step.view(), state.view());
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
