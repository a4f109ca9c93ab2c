// Tests for the contacts' dense added inertia (swarm/kernels/robots/contact_inertia.h) on the
// hand-built trees of tests/kernels/robots/robot_fixture.h (fixed and floating bases, mimic joints
// whose columns two joints of one path share), at the contact fixture's random configurations and
// geometry with random masses (some zero, some only on the normal), on every compiled SIMD
// target: the same bits everywhere, padding untouched, and every entry against
// E = sum_c J_c^T (m_t 1 + (m_n - m_t) n n^T) J_c in double with J_c's columns by central
// differences of the contact's material point along each velocity coordinate (a floating base
// turned by its body rate), within 1e-5 of the robot's largest entry (float32 lever arms).
#include "swarm/kernels/robots/contact_inertia.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "swarm/kernels/robots/dynamics/robot_dynamics.h"
#include "tests/kernels/robots/contact_fixture.h"
#include "tests/kernels/robots/robot_fixture.h"
#include "tests/support/for_each_target.h"

namespace swarm {
namespace {

using test::RobotLanes;

TEST_CASE("contact inertia matrix equals J^T C J by finite differences, on every target",
          "[dynamics]") {
  for (const test::TestRobot& robot : test::AllTestRobots()) {
    INFO(robot.name);
    const KinematicTree tree = robot.tree();
    const size_t n = ContactVelocityCount(tree);
    constexpr size_t kRobots = 21;
    test::ContactCase c = test::MakeContactCase(robot, kRobots, 31);
    const size_t contacts = c.contacts.size();
    // Masses: zero, normal only, or both, per contact and robot.
    RobotLanes added(kRobots, kAddedPointArrays * contacts, test::kContactPadding);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> mass(0.1f, 3.0f);
    for (size_t k = 0; k < contacts; ++k) {
      for (size_t r = 0; r < kRobots; ++r) {
        const int kind = static_cast<int>((r + 3 * k) % 3);
        added.At(kAddedPointArrays * k + 6, r) = kind == 0 ? 0.0f : mass(rng);
        added.At(kAddedPointArrays * k + 7, r) = kind == 2 ? mass(rng) : 0.0f;
      }
    }
    // A contact no robot has mass at: the kernels skip it.
    for (size_t r = 0; r < kRobots; ++r) {
      added.At(6, r) = 0.0f;
      added.At(7, r) = 0.0f;
    }
    std::vector<float> scratch(ContactInertiaScratchFloats(tree) + kPadFloats);
    float* aligned = scratch.data() + (kPadFloats - reinterpret_cast<uintptr_t>(scratch.data()) /
                                                        sizeof(float) % kPadFloats) %
                                          kPadFloats;
    std::vector<RobotLanes> results;
    test::ForEachTarget([&](const test::TargetUnderTest& target) {
      INFO("target " << target.name);
      RobotLanes matrix(kRobots, n * n, test::kContactPadding);
      ContactInertiaMatrix(tree, c.set(), c.poses.view(), added.view(), matrix.view(), aligned);
      CHECK(matrix.PaddingMismatch(test::kContactPadding).empty());
      if (!results.empty()) {
        CHECK(std::memcmp(matrix.data(), results.front().data(),
                          n * n * RoundUpToVector<float>(kRobots) * sizeof(float)) == 0);
      }
      results.push_back(std::move(matrix));
    });
    const RobotLanes& matrix = results.front();
    for (size_t r = 0; r < kRobots; ++r) {
      INFO("robot " << r);
      const std::vector<double> q = test::RobotQ(c.q, r);
      std::vector<double> expected(n * n, 0.0);
      for (size_t k = 0; k < contacts; ++k) {
        const double normal_mass = added.At(kAddedPointArrays * k + 6, r);
        const double tangent_mass = added.At(kAddedPointArrays * k + 7, r);
        glm::dvec3 point, normal;
        for (int a = 0; a < 3; ++a) {
          point[a] = c.geometry.At(kContactArrays * k + 1 + size_t(a), r);
          normal[a] = c.geometry.At(kContactArrays * k + 4 + size_t(a), r);
        }
        std::vector<glm::dvec3> columns;
        for (size_t column = 0; column < n; ++column) {
          std::vector<double> unit(n, 0.0);
          unit[column] = 1.0;
          columns.push_back(test::PointVelocity(robot, q, unit, c.contacts[k], point));
        }
        for (size_t a = 0; a < n; ++a) {
          for (size_t b = 0; b < n; ++b) {
            const glm::dvec3 weighted =
                tangent_mass * columns[b] +
                (normal_mass - tangent_mass) * glm::dot(normal, columns[b]) * normal;
            expected[a * n + b] += glm::dot(columns[a], weighted);
          }
        }
      }
      double largest = 1e-9;
      for (double e : expected) largest = std::max(largest, std::fabs(e));
      for (size_t entry = 0; entry < n * n; ++entry) {
        INFO("entry " << entry / n << ", " << entry % n);
        CHECK(std::fabs(matrix.At(entry, r) - expected[entry]) <= 1e-5 * largest);
      }
    }
  }
}

}  // namespace
}  // namespace swarm
