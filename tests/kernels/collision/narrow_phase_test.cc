// Tests for the narrow phase (swarm/kernels/collision/narrow_phase.h) on every compiled SIMD
// target: every pair of shape types at random poses near contact against the double-precision
// reference (swarm/kernels/collision/narrow_phase_reference.h: signed distance as the best
// separation over all directions), every contact's two surface points on the two shapes'
// surfaces (exact signed distance functions), the same bits on every target and the golden bits
// of x86-64 on every architecture, padding untouched;
// and the manifolds of resting configurations against their analytic contacts (a box flat on a
// plane and on a box, a capsule along a box and a capsule, an upright cylinder).
#include "swarm/kernels/collision/narrow_phase.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "swarm/kernels/collision/narrow_phase_reference.h"
#include "tests/kernels/collision/narrow_phase_fixture.h"
#include "tests/kernels/robots/joint_lanes_fixture.h"

namespace swarm {
namespace {

using test::AllPairs;
using test::AsCollided;
using test::Collide;
using test::PaddedLanes;
using test::Pair;
using test::PairName;
using test::RandomScene;
using test::Scene;
using test::SetFrame;

// The radius a shape's core is rounded by (a sphere's or capsule's), else 0.
double Rounding(const ShapeGeometry& shape) {
  return shape.type == ShapeType::kSphere || shape.type == ShapeType::kCapsule ? shape.size[0]
                                                                               : 0.0;
}

// Float kernels on coordinates of about 1 m: distances and surface points to 20 micrometres
// (a few hundred float ulps), normals attaining the best separation to the same.
constexpr double kTolerance = 2e-5;

TEST_CASE("narrow phase: every pair against the double-precision reference, on every target",
          "[narrow_phase]") {
  for (const Pair& pair : AllPairs()) {
    INFO("pair " << PairName(pair));
    std::mt19937 rng(1234);
    constexpr size_t kLanes = 300;
    Scene scene = RandomScene(pair, kLanes, rng);
    const bool boxes = pair.a.type == ShapeType::kBox && pair.b.type == ShapeType::kBox;
    const float margin = 10.0f;  // every clipped box point is kept
    const PaddedLanes contacts = test::CollideOnEveryTarget(pair, scene, margin);
    const ShapeGeometry a = AsCollided(pair.a, pair.b), b = AsCollided(pair.b, pair.a);
    const size_t slots = ContactSlotCount(pair.a.type, pair.b.type);
    size_t exact_lanes = 0;
    const bool end_spheres = (a.type == ShapeType::kPlane && b.type == ShapeType::kCapsule) ||
                             (a.type == ShapeType::kCapsule && b.type == ShapeType::kBox);
    for (size_t lane = 0; lane < kLanes; ++lane) {
      INFO("lane " << lane);
      double fa[12], fb[12], normal[3];
      scene.Frame(scene.frames_a, lane, fa);
      scene.Frame(scene.frames_b, lane, fb);
      const double reference = ReferenceSignedDistance(a, fa, b, fb, normal);
      double deepest = 1e300;
      double deepest_normal[3] = {0, 0, 1};
      for (size_t slot = 0; slot < slots; ++slot) {
        const float distance = contacts.Lane(kContactArrays * slot)[lane];
        if (distance == kNoContact) continue;
        double p[3], n[3], pa[3], pb[3];
        for (int k = 0; k < 3; ++k) {
          p[k] = contacts.Lane(kContactArrays * slot + 1 + k)[lane];
          n[k] = contacts.Lane(kContactArrays * slot + 4 + k)[lane];
        }
        REQUIRE(std::fabs(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] - 1.0) < 1e-5);
        for (int k = 0; k < 3; ++k) {
          pa[k] = p[k] - n[k] * distance / 2;
          pb[k] = p[k] + n[k] * distance / 2;
        }
        INFO("slot " << slot << " distance " << distance);
        // A capsule's end-sphere candidates (against a plane or a box) may lie inside the capsule
        // where it is tilted: inside or on its surface; every other contact point is on both.
        const double on_a = ReferenceShapeDistance(a, fa, pa);
        const double on_b = ReferenceShapeDistance(b, fb, pb);
        if (end_spheres) {
          CHECK(on_a < kTolerance);
          CHECK(on_b < kTolerance);
        } else {
          CHECK(std::fabs(on_a) < kTolerance);
          CHECK(std::fabs(on_b) < kTolerance);
        }
        if (distance < deepest) {
          deepest = distance;
          for (int k = 0; k < 3; ++k) deepest_normal[k] = n[k];
        }
      }
      // Exact pairs report the signed distance itself; box-box's clipped manifold and a capsule
      // segment through a box are approximations bounded by the reference: no contact deeper
      // than the true penetration, and a normal within the edge bias of the best.
      const bool capsule_through_box = b.type == ShapeType::kBox && a.type == ShapeType::kCapsule &&
                                       reference < -a.size[0] + 1e-4;
      INFO("reference " << reference << " deepest " << deepest);
      // (A face axis wins over an edge axis that separates by less than kEdgeAxisBias more, so
      // its contacts may be that much deeper.) Box normals are checked near contact, within
      // 1 cm: apart, any normal whose points lie on both surfaces will do.
      if (boxes || capsule_through_box) {
        const double bias = boxes ? kEdgeAxisBias : 0.0;
        if (deepest < 1e300) CHECK(deepest > reference - bias - kTolerance);
        if (boxes && deepest < 1e300 && reference < 0.01) {
          CHECK(ReferenceSeparation(a, fa, b, fb, deepest_normal) > reference - bias - kTolerance);
        }
        if (boxes && reference < -1e-3) CHECK(deepest < 1e300);  // overlapping boxes touch
      } else {
        ++exact_lanes;
        CHECK(std::fabs(deepest - reference) < kTolerance);
        // The normal joins the closest points of the shapes' cores (a sphere's centre, a
        // capsule's segment): where the cores nearly meet, float rounding turns it freely.
        if (deepest + Rounding(a) + Rounding(b) > 1e-3) {
          CHECK(ReferenceSeparation(a, fa, b, fb, deepest_normal) > reference - kTolerance);
        }
      }
    }
    if (!boxes) CHECK(exact_lanes > kLanes / 2);
  }
}

// One lane's contacts of a pair at the given frames: (distance, point, normal) per slot.
struct Contact {
  float distance;
  double point[3], normal[3];
};

std::vector<Contact> CollideOnce(const ShapeGeometry& a, const ShapeGeometry& b, const double ca[3],
                                 const double ma[9], const double cb[3], const double mb[9],
                                 float margin = 0.01f) {
  Scene scene(1);
  SetFrame(scene.frames_a, 0, ca, ma);
  SetFrame(scene.frames_b, 0, cb, mb);
  const PaddedLanes contacts = Collide({a, b}, scene, margin);
  std::vector<Contact> out;
  for (size_t slot = 0; slot < ContactSlotCount(a.type, b.type); ++slot) {
    Contact c{contacts.Lane(kContactArrays * slot)[0], {}, {}};
    for (int k = 0; k < 3; ++k) {
      c.point[k] = contacts.Lane(kContactArrays * slot + 1 + k)[0];
      c.normal[k] = contacts.Lane(kContactArrays * slot + 4 + k)[0];
    }
    out.push_back(c);
  }
  return out;
}

void Yaw(double angle, double m[9]) {
  const double c = std::cos(angle), s = std::sin(angle);
  const double r[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
  std::memcpy(m, r, sizeof(r));
}

// True when some contact has this point (x, y, z) to 1e-5.
bool HasPoint(const std::vector<Contact>& contacts, double x, double y, double z) {
  for (const Contact& c : contacts) {
    if (c.distance != kNoContact && std::fabs(c.point[0] - x) < 1e-5 &&
        std::fabs(c.point[1] - y) < 1e-5 && std::fabs(c.point[2] - z) < 1e-5) {
      return true;
    }
  }
  return false;
}

constexpr double kSink = 0.001;  // how deep each resting shape is pressed in, m

TEST_CASE("narrow phase: resting manifolds equal their analytic contacts", "[narrow_phase]") {
  const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double origin[3] = {0, 0, 0};
  const ShapeGeometry plane = ShapeOf(ShapeType::kPlane, 0);
  const ShapeGeometry box = ShapeOf(ShapeType::kBox, 0.1f, 0.15f, 0.07f);
  const ShapeGeometry table = ShapeOf(ShapeType::kBox, 0.5f, 0.5f, 0.1f);
  for (double yaw : {0.0, 0.3, 2.0}) {
    INFO("yaw " << yaw);
    double m[9];
    Yaw(yaw, m);
    const double c = std::cos(yaw), s = std::sin(yaw);
    // The box's bottom corners, halfway between the surfaces.
    const auto corners_at = [&](const std::vector<Contact>& contacts, double base, double up) {
      for (double sx : {-1.0, 1.0}) {
        for (double sy : {-1.0, 1.0}) {
          const double x = sx * 0.1, y = sy * 0.15;
          CHECK(HasPoint(contacts, c * x - s * y, s * x + c * y, base - kSink / 2));
        }
      }
      for (const Contact& contact : contacts) {
        CHECK(std::fabs(contact.distance + kSink) < 1e-6);
        CHECK(std::fabs(contact.normal[2] - up) < 1e-6);
      }
    };
    SECTION("a box flat on a plane: its four bottom corners") {
      const double centre[3] = {0, 0, 0.07 - kSink};
      corners_at(CollideOnce(plane, box, origin, identity, centre, m), 0.0, 1.0);
    }
    SECTION("a box flat on a larger box: its four bottom corners") {
      const double centre[3] = {0, 0, 0.1 + 0.07 - kSink};
      corners_at(CollideOnce(table, box, origin, identity, centre, m), 0.1, 1.0);
    }
    SECTION("a larger box on a box: the smaller top face's corners, normal down") {
      const double centre[3] = {0, 0, 0.1 + 0.07 - kSink};
      const std::vector<Contact> contacts = CollideOnce(table, box, centre, identity, origin, m);
      for (const Contact& contact : contacts) {
        CHECK(std::fabs(contact.distance + kSink) < 1e-6);
        CHECK(std::fabs(contact.normal[2] + 1.0) < 1e-6);
      }
      for (double sx : {-1.0, 1.0}) {
        for (double sy : {-1.0, 1.0}) {
          const double x = sx * 0.1, y = sy * 0.15;
          CHECK(HasPoint(contacts, c * x - s * y, s * x + c * y, 0.07 - kSink / 2));
        }
      }
    }
  }
  SECTION("a capsule along a box's top face: its two ends, no middle") {
    const ShapeGeometry capsule = ShapeOf(ShapeType::kCapsule, 0.05f, 0.2f);
    const double lying[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};  // the capsule's z along world x
    const double centre[3] = {0.1, 0, 0.1 + 0.05 - kSink};
    const std::vector<Contact> contacts =
        CollideOnce(capsule, table, centre, lying, origin, identity);
    REQUIRE(contacts.size() == 3);
    CHECK(contacts[2].distance == kNoContact);
    CHECK(HasPoint(contacts, -0.1, 0, 0.1 - kSink / 2));
    CHECK(HasPoint(contacts, 0.3, 0, 0.1 - kSink / 2));
    CHECK(std::fabs(contacts[0].normal[2] + 1.0) < 1e-6);  // from the capsule down into the box
  }
  SECTION("a capsule across a box's edge: the middle point, on the edge") {
    const ShapeGeometry capsule = ShapeOf(ShapeType::kCapsule, 0.05f, 0.2f);
    // The capsule's axis (1, 0, -1) / sqrt 2 leans over the edge x = 0.5, z = 0.1 (along y).
    const double h = std::sqrt(0.5);
    const double leaning[9] = {-h, 0, h, 0, 1, 0, -h, 0, -h};
    const double centre[3] = {0.51, 0, 0.15};
    const std::vector<Contact> contacts =
        CollideOnce(capsule, table, centre, leaning, origin, identity);
    // The segment's point nearest the edge is (0.53, 0, 0.13), 0.03 sqrt 2 from it.
    const double length = 0.03 * std::sqrt(2.0);
    const double gap = length - 0.05;
    CHECK(std::fabs(contacts[2].distance - gap) < 1e-6);
    const double reach = (0.05 + gap / 2) / length;
    CHECK(HasPoint(contacts, 0.53 - 0.03 * reach, 0, 0.13 - 0.03 * reach));
    CHECK(contacts[0].distance > 0.1);  // the ends are far
    CHECK(contacts[1].distance > 0.1);
  }
  SECTION("two parallel capsules: the two ends of their overlap") {
    const ShapeGeometry capsule = ShapeOf(ShapeType::kCapsule, 0.05f, 0.2f);
    const double lying[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};
    const double upper[3] = {0.15, 0, 0.1 - kSink};
    const std::vector<Contact> contacts =
        CollideOnce(capsule, capsule, origin, lying, upper, lying);
    CHECK(HasPoint(contacts, -0.05, 0, 0.05 - kSink / 2));
    CHECK(HasPoint(contacts, 0.2, 0, 0.05 - kSink / 2));
    for (const Contact& contact : contacts) CHECK(std::fabs(contact.distance + kSink) < 1e-6);
  }
  SECTION("an upright cylinder on a plane: three rim points at 120 degrees, the top rim free") {
    const ShapeGeometry cylinder = ShapeOf(ShapeType::kCylinder, 0.08f, 0.12f);
    const double centre[3] = {0, 0, 0.12 - kSink};
    const std::vector<Contact> contacts =
        CollideOnce(plane, cylinder, origin, identity, centre, identity);
    for (size_t slot : {0, 2, 3}) CHECK(std::fabs(contacts[slot].distance + kSink) < 1e-6);
    CHECK(std::fabs(contacts[1].distance - (0.24 - kSink)) < 1e-6);
    CHECK(HasPoint(contacts, 0.08, 0, -kSink / 2));
    CHECK(HasPoint(contacts, -0.04, 0.08 * std::sqrt(3.0) / 2, -kSink / 2));
    CHECK(HasPoint(contacts, -0.04, -0.08 * std::sqrt(3.0) / 2, -kSink / 2));
  }
}

}  // namespace
}  // namespace swarm
