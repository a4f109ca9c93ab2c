// Tests for the batched robot kinematics of swarm/kernels/robots/robot_kinematics.h on hand-built
// trees (tests/kernels/robots/robot_fixture.h): bitwise against the scalar references on every
// compiled SIMD target, independence of batch size and slice offset, padding, NaN isolation,
// forward kinematics against a double-precision matrix implementation, the Jacobian against central
// finite differences, and the closed-form planar two-link arm.
#include "swarm/kernels/robots/robot_kinematics.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "swarm/kernels/robots/robot_kinematics_reference.h"
#include "tests/kernels/robots/robot_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::ForEachTarget;
using test::RobotLanes;
using test::TargetUnderTest;
using test::TestRobot;

// A value the kernels never produce, written into output padding to catch stray stores.
constexpr float kSentinel = -7.25f;

RobotLanes Poses(const KinematicTree& tree, size_t count) {
  RobotLanes poses(count, kPoseArrays * tree.link_count(), kSentinel);
  poses.FillValid(kSentinel);
  return poses;
}

RobotLanes Jacobian(const KinematicTree& tree, size_t count) {
  RobotLanes jacobian(count, 6 * tree.joint_q_count(), kSentinel);
  jacobian.FillValid(kSentinel);
  return jacobian;
}

RobotLanes ReferenceFk(const TestRobot& robot, const RobotLanes& q) {
  RobotLanes poses = Poses(robot.tree(), q.count());
  reference::ForwardKinematics(robot.tree(), q.view(), poses.view());
  return poses;
}

TEST_CASE("ForwardKinematics and LinkJacobian equal the references bitwise on every target",
          "[robot_kinematics]") {
  for (const TestRobot& robot : test::AllTestRobots()) {
    const KinematicTree tree = robot.tree();
    for (size_t count :
         {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{100}, size_t{1000}, size_t{2100}}) {
      INFO(robot.name << ", " << count << " robots");
      const RobotLanes q = test::RandomQ(robot, count, 17u + static_cast<uint32_t>(count));
      const RobotLanes want = ReferenceFk(robot, q);
      std::vector<RobotLanes> want_jacobians;
      for (size_t link = 0; link < tree.link_count(); ++link) {
        want_jacobians.push_back(Jacobian(tree, count));
        reference::LinkJacobian(tree, link, want.view(), want_jacobians.back().view());
      }
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name);
        RobotLanes poses = Poses(tree, count);
        ForwardKinematics(tree, q.view(), poses.view());
        CHECK(test::FirstBitDifference(poses, want) == "");
        CHECK(poses.PaddingMismatch(kSentinel) == "");
        for (size_t link = 0; link < tree.link_count(); ++link) {
          INFO("jacobian of link " << link);
          RobotLanes jacobian = Jacobian(tree, count);
          LinkJacobian(tree, link, poses.view(), jacobian.view());
          CHECK(test::FirstBitDifference(jacobian, want_jacobians[link]) == "");
          CHECK(jacobian.PaddingMismatch(kSentinel) == "");
        }
      });
    }
  }
}

TEST_CASE("Robot r gets the same bits alone, in any batch size and at any slice offset",
          "[robot_kinematics]") {
  // More robots than one tile of the kernels' schedule (1024), so tiles are crossed too.
  constexpr size_t kCount = 2500;
  for (const TestRobot& robot : test::AllTestRobots()) {
    INFO(robot.name);
    const KinematicTree tree = robot.tree();
    const RobotLanes q = test::RandomQ(robot, kCount, 5);
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      RobotLanes whole = Poses(tree, kCount);
      ForwardKinematics(tree, q.view(), whole.view());
      const size_t link = tree.link_count() - 1;
      RobotLanes whole_jacobian = Jacobian(tree, kCount);
      LinkJacobian(tree, link, whole.view(), whole_jacobian.view());
      for (size_t robot_index :
           {size_t{0}, size_t{13}, size_t{16}, size_t{511}, size_t{1500}, size_t{2499}}) {
        INFO("robot " << robot_index);
        RobotLanes one_q(1, tree.q_count);
        for (size_t a = 0; a < tree.q_count; ++a) one_q.At(a, 0) = q.At(a, robot_index);
        RobotLanes alone = Poses(tree, 1);
        ForwardKinematics(tree, one_q.view(), alone.view());
        CHECK(test::FirstBitDifference(alone, whole, 0, robot_index, 1) == "");
        RobotLanes alone_jacobian = Jacobian(tree, 1);
        LinkJacobian(tree, link, alone.view(), alone_jacobian.view());
        CHECK(test::FirstBitDifference(alone_jacobian, whole_jacobian, 0, robot_index, 1) == "");
      }
      // Slices starting at vector boundaries (kPadFloats: 16 on x86, 64 on aarch64), with
      // lengths that end mid-vector; the last one near the end of the batch.
      constexpr size_t kPad = kPadFloats;
      for (size_t begin : {kPad, 3 * kPad, std::min(63 * kPad, kCount / 2 / kPad * kPad),
                           (kCount - 36) / kPad * kPad}) {
        const size_t n = std::min<size_t>(kCount - begin, 37);
        INFO("slice " << begin << " + " << n);
        RobotLanes sliced = Poses(tree, kCount);
        ForwardKinematics(tree, q.view().Slice(begin, n), sliced.view().Slice(begin, n));
        CHECK(test::FirstBitDifference(sliced, whole, begin, begin, n) == "");
        // Robots outside the slice are untouched.
        CHECK(sliced.At(0, begin - 1) == kSentinel);
        CHECK(sliced.At(0, begin + n) == kSentinel);
      }
    });
  }
}

// A serial chain of `joints` revolute joints cycling through the joint formulas: a deep tree whose
// tile of poses no longer fits in L2.
TestRobot LongChainRobot(size_t joints) {
  TestRobot robot{"long chain", {}, joints, false};
  const glm::dvec3 axes[4] = {{0, 0, 1}, {0, -1, 0}, {1, 0, 0}, {1, 2, -2}};
  for (size_t j = 0; j < joints; ++j) {
    test::JointSpec spec;
    spec.parent = static_cast<uint32_t>(j);
    spec.motion = JointMotion::kRevolute;
    spec.q_index = static_cast<int>(j);
    spec.xyz = {0.01 * static_cast<double>(j % 3), 0.02, 0.05};
    spec.rpy = j % 2 == 0 ? glm::dvec3(0.0, 0.0, 0.3) : glm::dvec3(0.1, -0.2, 0.0);
    spec.axis = axes[j % 4];
    robot.joints.push_back(test::MakeJoint(spec));
  }
  return robot;
}

// Robots whose pose arrays reach kStreamOutputBytes (swarm/kernels/base/views.h), the size from
// which data no longer stays in cache, with `extra` more so the last tile and vector are partial.
size_t LargeCount(const KinematicTree& tree, size_t extra) {
  return kStreamOutputBytes / (sizeof(float) * kPoseArrays * tree.link_count()) + extra;
}

TEST_CASE("Batches larger than the caches equal the references bitwise on every target",
          "[robot_kinematics]") {
  std::vector<TestRobot> robots = test::AllTestRobots();
  // 41 links: a tile of 1024 robots' poses (1.1 MB) no longer fits in L2.
  robots.push_back(LongChainRobot(40));
  for (const TestRobot& robot : robots) {
    const KinematicTree tree = robot.tree();
    for (size_t extra : {size_t{0}, size_t{37}}) {
      const size_t count = LargeCount(tree, extra);
      INFO(robot.name << ", " << count << " robots");
      const RobotLanes q = test::RandomQ(robot, count, 23u + static_cast<uint32_t>(extra));
      const RobotLanes want = ReferenceFk(robot, q);
      REQUIRE(want.arrays() * want.stride() * sizeof(float) >= kStreamOutputBytes);
      ForEachTarget([&](const TargetUnderTest& target) {
        INFO("target " << target.name);
        RobotLanes poses = Poses(tree, count);
        ForwardKinematics(tree, q.view(), poses.view());
        CHECK(test::FirstBitDifference(poses, want) == "");
        CHECK(poses.PaddingMismatch(kSentinel) == "");
        // Slices of the large arrays: nothing outside the slice is written.
        // On vector boundaries (kPadFloats: 16 on x86, 64 on aarch64), with room for 300.
        const size_t first =
            std::min<size_t>(1024, (count - 300) / kPadFloats * kPadFloats - kPadFloats);
        for (size_t begin : {first, first + kPadFloats}) {
          for (size_t n : {size_t{37}, size_t{300}}) {
            INFO("slice " << begin << " + " << n);
            RobotLanes sliced = Poses(tree, count);
            ForwardKinematics(tree, q.view().Slice(begin, n), sliced.view().Slice(begin, n));
            CHECK(test::FirstBitDifference(sliced, want, begin, begin, n) == "");
            CHECK(sliced.At(0, begin - 1) == kSentinel);
            CHECK(sliced.At(kPoseArrays * tree.link_count() - 1, begin + n) == kSentinel);
          }
        }
      });
    }
  }
}

TEST_CASE("NaN in one robot's q affects only that robot, and only links below the joint",
          "[robot_kinematics]") {
  constexpr size_t kCount = 40;
  constexpr size_t kNanRobot = 21;
  const TestRobot robot = test::QuadrupedRobot();
  const KinematicTree tree = robot.tree();
  const RobotLanes clean_q = test::RandomQ(robot, kCount, 9);
  // Column 4 of the joints (second leg's thigh) drives joint 6 (link 7); links 7 and 8 (knee,
  // foot) are below it, all other links are not.
  RobotLanes q(clean_q);
  q.At(tree.joint_q_begin() + 4, kNanRobot) = std::numeric_limits<float>::quiet_NaN();
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    RobotLanes clean = Poses(tree, kCount);
    ForwardKinematics(tree, clean_q.view(), clean.view());
    RobotLanes poses = Poses(tree, kCount);
    ForwardKinematics(tree, q.view(), poses.view());
    for (size_t a = 0; a < poses.arrays(); ++a) {
      const size_t link = a / kPoseArrays;
      for (size_t r = 0; r < kCount; ++r) {
        const bool affected = r == kNanRobot && link >= 7 && link <= 9;
        INFO("array " << a << " robot " << r);
        if (affected && (link != 7 || a % kPoseArrays >= 3)) {
          // Link 7's translation does not depend on its own joint's angle.
          CHECK(std::isnan(poses.At(a, r)));
        } else {
          const float got = poses.At(a, r), want = clean.At(a, r);
          CHECK(std::memcmp(&got, &want, sizeof(float)) == 0);
        }
      }
    }
  });
}

// Largest translation error (metres) and rotation error (radians) of the float poses against the
// double-precision matrices.
struct PoseError {
  double position = 0.0, rotation = 0.0;
};

PoseError CompareWithDouble(const TestRobot& robot, const RobotLanes& q, const RobotLanes& poses) {
  PoseError error;
  for (size_t r = 0; r < q.count(); ++r) {
    const std::vector<glm::dmat4> want = test::DoubleForwardKinematics(robot, test::RobotQ(q, r));
    for (size_t link = 0; link < want.size(); ++link) {
      const glm::dmat4 got = test::PoseMatrix(poses, link, r);
      error.position = std::max(error.position, glm::length(glm::dvec3(got[3] - want[link][3])));
      const glm::dvec3 rotation_error =
          test::RotationLog(glm::transpose(glm::dmat3(want[link])) * glm::dmat3(got));
      error.rotation = std::max(error.rotation, glm::length(rotation_error));
    }
  }
  return error;
}

TEST_CASE("ForwardKinematics matches double-precision matrices within 1e-5", "[robot_kinematics]") {
  // Each joint adds a few float roundings (about 1e-7 relative) to poses of at most ~1.5 m, and
  // sin/cos are accurate to 2 ulp, so 10 joints stay far below 1e-5 m and 1e-5 rad.
  constexpr double kTolerance = 1e-5;
  for (const TestRobot& robot : test::AllTestRobots()) {
    INFO(robot.name);
    RobotLanes q = test::RandomQ(robot, 500, 3);
    if (robot.floating_base) {
      for (size_t a = 3; a < 7; ++a) q.At(a, 7) = 0.0f;  // zero quaternion: identity
    }
    ForEachTarget([&](const TargetUnderTest& target) {
      INFO("target " << target.name);
      RobotLanes poses = Poses(robot.tree(), q.count());
      ForwardKinematics(robot.tree(), q.view(), poses.view());
      const PoseError error = CompareWithDouble(robot, q, poses);
      CHECK(error.position <= kTolerance);
      CHECK(error.rotation <= kTolerance);
    });
  }
}

TEST_CASE("A floating base's zero quaternion gives the identity rotation", "[robot_kinematics]") {
  const TestRobot robot = test::QuadrupedRobot();
  RobotLanes q = test::RandomQ(robot, 3, 4);
  for (size_t a = 3; a < 7; ++a) q.At(a, 1) = 0.0f;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    RobotLanes poses = Poses(robot.tree(), 3);
    ForwardKinematics(robot.tree(), q.view(), poses.view());
    CHECK(poses.At(0, 1) == q.At(0, 1));
    CHECK(poses.At(3, 1) == 0.0f);
    CHECK(poses.At(4, 1) == 0.0f);
    CHECK(poses.At(5, 1) == 0.0f);
    CHECK(poses.At(6, 1) == 1.0f);
  });
}

// Central differences of the double FK: column c of the Jacobian of `link` at robot r's q.
void FiniteDifferenceJacobian(const TestRobot& robot, const std::vector<double>& q, size_t link,
                              double step, std::vector<double> columns[6]) {
  const KinematicTree tree = robot.tree();
  for (size_t c = 0; c < tree.joint_q_count(); ++c) {
    std::vector<double> plus = q, minus = q;
    plus[tree.joint_q_begin() + c] += step;
    minus[tree.joint_q_begin() + c] -= step;
    const glm::dmat4 a = test::DoubleForwardKinematics(robot, plus)[link];
    const glm::dmat4 b = test::DoubleForwardKinematics(robot, minus)[link];
    const glm::dvec3 linear = glm::dvec3(a[3] - b[3]) / (2.0 * step);
    const glm::dvec3 angular =
        test::RotationLog(glm::dmat3(a) * glm::transpose(glm::dmat3(b))) / (2.0 * step);
    for (int k = 0; k < 3; ++k) {
      columns[k].push_back(linear[k]);
      columns[3 + k].push_back(angular[k]);
    }
  }
}

TEST_CASE("LinkJacobian matches central differences of the double-precision FK",
          "[robot_kinematics]") {
  // Step 1e-5: truncation error ~ step^2 |d3 FK| < 1e-9, cancellation ~ 1e-16 / step = 1e-11, so
  // the differences are exact to ~1e-9 and the tolerance covers the float Jacobian's own
  // rounding (poses accurate to ~1e-6, entries up to ~1.5).
  constexpr double kStep = 1e-5;
  constexpr double kTolerance = 1e-5;
  constexpr size_t kCount = 40;
  for (const TestRobot& robot : test::AllTestRobots()) {
    const KinematicTree tree = robot.tree();
    const RobotLanes q = test::RandomQ(robot, kCount, 11);
    ForEachTarget([&](const TargetUnderTest& target) {
      RobotLanes poses = Poses(tree, kCount);
      ForwardKinematics(tree, q.view(), poses.view());
      for (size_t link = 0; link < tree.link_count(); ++link) {
        RobotLanes jacobian = Jacobian(tree, kCount);
        LinkJacobian(tree, link, poses.view(), jacobian.view());
        double worst = 0.0;
        for (size_t r = 0; r < kCount; ++r) {
          std::vector<double> want[6];
          FiniteDifferenceJacobian(robot, test::RobotQ(q, r), link, kStep, want);
          for (size_t row = 0; row < 6; ++row) {
            for (size_t c = 0; c < tree.joint_q_count(); ++c) {
              const double got = jacobian.At(row * tree.joint_q_count() + c, r);
              worst = std::max(worst, std::abs(got - want[row][c]));
            }
          }
        }
        INFO(robot.name << " link " << link << " target " << target.name);
        CHECK(worst <= kTolerance);
      }
    });
  }
}

TEST_CASE("LinkJacobian matches central differences of the float FK loosely",
          "[robot_kinematics]") {
  // Differences of float poses: rounding ~ 2e-7 / (2 step) = 1e-4 for step 1e-3; truncation
  // step^2 |d3 FK| ~ 1e-6; the tolerance is 1e-3. A wrong sign, axis or column is off by O(0.1).
  constexpr float kStep = 1e-3f;
  constexpr double kTolerance = 1e-3;
  constexpr size_t kCount = 64;
  for (const TestRobot& robot : test::AllTestRobots()) {
    INFO(robot.name);
    const KinematicTree tree = robot.tree();
    const RobotLanes q = test::RandomQ(robot, kCount, 12);
    const size_t link = tree.link_count() - 1;
    RobotLanes poses = Poses(tree, kCount);
    ForwardKinematics(tree, q.view(), poses.view());
    RobotLanes jacobian = Jacobian(tree, kCount);
    LinkJacobian(tree, link, poses.view(), jacobian.view());
    double worst = 0.0;
    for (size_t c = 0; c < tree.joint_q_count(); ++c) {
      RobotLanes plus_q(q), minus_q(q);
      for (size_t r = 0; r < kCount; ++r) {
        plus_q.At(tree.joint_q_begin() + c, r) += kStep;
        minus_q.At(tree.joint_q_begin() + c, r) -= kStep;
      }
      RobotLanes plus = Poses(tree, kCount), minus = Poses(tree, kCount);
      ForwardKinematics(tree, plus_q.view(), plus.view());
      ForwardKinematics(tree, minus_q.view(), minus.view());
      for (size_t r = 0; r < kCount; ++r) {
        // The actual step after float rounding of q +- step.
        const double step = (double{plus_q.At(tree.joint_q_begin() + c, r)} -
                             double{minus_q.At(tree.joint_q_begin() + c, r)}) /
                            2.0;
        const glm::dmat4 a = test::PoseMatrix(plus, link, r), b = test::PoseMatrix(minus, link, r);
        const glm::dvec3 linear = glm::dvec3(a[3] - b[3]) / (2.0 * step);
        const glm::dvec3 angular =
            test::RotationLog(glm::dmat3(a) * glm::transpose(glm::dmat3(b))) / (2.0 * step);
        for (int k = 0; k < 3; ++k) {
          const size_t n = tree.joint_q_count();
          worst = std::max(worst, std::abs(jacobian.At(k * n + c, r) - linear[k]));
          worst = std::max(worst, std::abs(jacobian.At((3 + k) * n + c, r) - angular[k]));
        }
      }
    }
    CHECK(worst <= kTolerance);
  }
}

TEST_CASE("Planar two-link arm: closed-form position and Jacobian", "[robot_kinematics]") {
  // x = l1 c1 + l2 c12, y = l1 s1 + l2 s12; J = [[-y, -l2 s12], [x, l2 c12]] for the linear x, y
  // rows and [1, 1] for the angular z row. Tolerance: float rounding of ~1 m quantities.
  constexpr double kTolerance = 2e-6;
  const TestRobot robot = test::PlanarRobot();
  const KinematicTree tree = robot.tree();
  constexpr size_t kCount = 33;
  const RobotLanes q = test::RandomQ(robot, kCount, 21);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    RobotLanes poses = Poses(tree, kCount);
    ForwardKinematics(tree, q.view(), poses.view());
    RobotLanes jacobian = Jacobian(tree, kCount);
    LinkJacobian(tree, 3, poses.view(), jacobian.view());
    for (size_t r = 0; r < kCount; ++r) {
      const double q1 = q.At(0, r), q12 = q1 + double{q.At(1, r)};
      const double x = test::kPlanarL1 * std::cos(q1) + test::kPlanarL2 * std::cos(q12);
      const double y = test::kPlanarL1 * std::sin(q1) + test::kPlanarL2 * std::sin(q12);
      INFO("robot " << r);
      CHECK(std::abs(poses.At(kPoseArrays * 3 + 0, r) - x) <= kTolerance);
      CHECK(std::abs(poses.At(kPoseArrays * 3 + 1, r) - y) <= kTolerance);
      CHECK(poses.At(kPoseArrays * 3 + 2, r) == 0.0f);
      // Rotation about z by q1 + q2: (0, 0, sin(q12 / 2), cos(q12 / 2)) up to sign.
      const double dot = poses.At(kPoseArrays * 3 + 5, r) * std::sin(q12 / 2) +
                         poses.At(kPoseArrays * 3 + 6, r) * std::cos(q12 / 2);
      const double sign = dot < 0.0 ? -1.0 : 1.0;
      CHECK(std::abs(sign * poses.At(kPoseArrays * 3 + 5, r) - std::sin(q12 / 2)) <= kTolerance);
      CHECK(std::abs(sign * poses.At(kPoseArrays * 3 + 6, r) - std::cos(q12 / 2)) <= kTolerance);
      const double want[6][2] = {{-y, -test::kPlanarL2 * std::sin(q12)},
                                 {x, test::kPlanarL2 * std::cos(q12)},
                                 {0, 0},
                                 {0, 0},
                                 {0, 0},
                                 {1, 1}};
      for (size_t row = 0; row < 6; ++row) {
        for (size_t c = 0; c < 2; ++c) {
          INFO("row " << row << " column " << c);
          CHECK(std::abs(jacobian.At(row * 2 + c, r) - want[row][c]) <= kTolerance);
        }
      }
    }
  });
}

TEST_CASE("Mimic joints add their scaled contribution to the master's column",
          "[robot_kinematics]") {
  // Link 3 hangs on the mirrored finger (multiplier -1 of column 1): its column 1 is -(axis y in
  // world); link 2 on the master finger gets +(axis y). Columns for joints off the path are 0.
  const TestRobot robot = test::MimicRobot();
  const KinematicTree tree = robot.tree();
  const RobotLanes q = test::RandomQ(robot, 20, 8);
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    RobotLanes poses = Poses(tree, 20);
    ForwardKinematics(tree, q.view(), poses.view());
    RobotLanes master = Jacobian(tree, 20), mirrored = Jacobian(tree, 20);
    LinkJacobian(tree, 2, poses.view(), master.view());
    LinkJacobian(tree, 3, poses.view(), mirrored.view());
    for (size_t r = 0; r < 20; ++r) {
      for (size_t row = 0; row < 6; ++row) {
        INFO("robot " << r << " row " << row);
        CHECK(mirrored.At(row * 2 + 1, r) == -master.At(row * 2 + 1, r));
      }
      // The finger slides along the wrist's rotated y axis: (-sin q0, cos q0, 0).
      const double q0 = q.At(0, r);
      CHECK(std::abs(master.At(0 * 2 + 1, r) + std::sin(q0)) <= 1e-6);
      CHECK(std::abs(master.At(1 * 2 + 1, r) - std::cos(q0)) <= 1e-6);
      CHECK(master.At(5 * 2 + 1, r) == 0.0f);
    }
  });
}

TEST_CASE("Empty batches and link 0 leave everything untouched or zero", "[robot_kinematics]") {
  const TestRobot robot = test::Ur5Robot();
  const KinematicTree tree = robot.tree();
  RobotLanes q(0, tree.q_count);
  RobotLanes poses = Poses(tree, 0);
  ForwardKinematics(tree, q.view(), poses.view());
  CHECK(poses.PaddingMismatch(kSentinel) == "");
  const RobotLanes some_q = test::RandomQ(robot, 5, 2);
  RobotLanes some_poses = Poses(tree, 5);
  ForwardKinematics(tree, some_q.view(), some_poses.view());
  RobotLanes jacobian = Jacobian(tree, 5);
  LinkJacobian(tree, 0, some_poses.view(), jacobian.view());
  for (size_t a = 0; a < jacobian.arrays(); ++a) {
    for (size_t r = 0; r < 5; ++r) CHECK(jacobian.At(a, r) == 0.0f);
  }
}

}  // namespace
}  // namespace swarm
