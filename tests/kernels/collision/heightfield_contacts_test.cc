// Tests for the narrow phase's heightfield pairs (swarm/kernels/collision/narrow_phase.h) on every
// compiled SIMD target: spheres, capsules, cylinders and boxes at random poses over a bumpy
// heightfield in a random frame, every slot against the double-precision reference (the signed
// distance of the slot's point to the whole surface, every triangle of the grid: within half a
// cell of the surface the kernel's 2 x 2 cells must find the same closest point), its two surface
// points on the two shapes, no contact beyond the rectangle, the same bits on every target and
// the golden bits of x86-64 on every architecture, padding untouched; a flat heightfield gives the
// plane's contacts, and a ramp its exact normal.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "swarm/kernels/collision/narrow_phase.h"
#include "swarm/kernels/collision/narrow_phase_reference.h"
#include "tests/kernels/collision/narrow_phase_fixture.h"
#include "tests/kernels/robots/joint_lanes_fixture.h"

namespace swarm {
namespace {

using test::Collide;
using test::PaddedLanes;
using test::Pair;
using test::PairName;
using test::RandomRotation;
using test::Scene;
using test::SetFrame;

// Float kernels on coordinates of about 1 m: 20 micrometres (a few hundred float ulps).
constexpr double kTolerance = 2e-5;

// A 2 m x 1.6 m grid of 21 x 17 points (10 cm cells) with bumps up to 12 cm.
struct Terrain {
  std::vector<float> heights;
  ShapeGeometry shape;
  Terrain(uint32_t rows, uint32_t columns, float half_x, float half_y, std::mt19937& rng,
          float bump) {
    std::uniform_real_distribution<float> height(0.0f, bump);
    heights.resize(size_t{rows} * columns);
    for (float& h : heights) h = height(rng);
    shape = ShapeOf(ShapeType::kHeightfield, half_x, half_y, 0.1f);
    shape.top = bump;  // a bound, not the highest height itself
    shape.rows = rows;
    shape.columns = columns;
    shape.heights = heights.data();
  }
};

// The heightfield's frame applied to a local point.
void ToWorld(const double frame[12], const double local[3], double world[3]) {
  for (int k = 0; k < 3; ++k) {
    world[k] = frame[k] + frame[3 + 3 * k] * local[0] + frame[4 + 3 * k] * local[1] +
               frame[5 + 3 * k] * local[2];
  }
}

// Random poses over the terrain: centres at random x, y of the rectangle and 10 % beyond it,
// between half a reach below the surface and a reach above it (every seventh 25 cm higher);
// random rotations of both.
Scene TerrainScene(const Pair& pair, size_t lanes, std::mt19937& rng) {
  Scene scene(lanes);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const double reach = test::Reach(pair.b);
  for (size_t lane = 0; lane < lanes; ++lane) {
    double ma[9], mb[9], ca[3], cb[3];
    RandomRotation(rng, ma);
    RandomRotation(rng, mb);
    for (double& c : ca) c = unit(rng);
    double frame[12];
    std::memcpy(frame, ca, sizeof(ca));
    std::memcpy(frame + 3, ma, sizeof(ma));
    const double local[3] = {1.1 * pair.a.size[0] * unit(rng), 1.1 * pair.a.size[1] * unit(rng),
                             0.06 + reach * (0.25 + 0.75 * unit(rng)) + (lane % 7 == 0 ? 0.25 : 0)};
    ToWorld(frame, local, cb);
    SetFrame(scene.frames_a, lane, ca, ma);
    SetFrame(scene.frames_b, lane, cb, mb);
  }
  return scene;
}

// The reference distance of a point on the surface to it: its x and y first pulled into the
// rectangle by the rounding that may have taken a point on the border just beyond it.
double SurfacePointDistance(const ShapeGeometry& field, const double frame[12], const double p[3]) {
  double local[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < 3; ++j) local[k] += frame[3 + 3 * j + k] * (p[j] - frame[j]);
  }
  for (int k = 0; k < 2; ++k) {
    // (1e-6 m: the frame, read back from floats, is orthonormal to 1e-7.)
    const double inside = field.size[k] - 1e-6;
    local[k] = std::clamp(local[k], -inside, inside);
  }
  double world[3];
  ToWorld(frame, local, world);
  return ReferenceShapeDistance(field, frame, world);
}

// The radius of the spheres a shape's slots stand for (a sphere's, a capsule's), else 0.
double Rounding(const ShapeGeometry& shape) {
  return shape.type == ShapeType::kSphere || shape.type == ShapeType::kCapsule ? shape.size[0]
                                                                               : 0.0;
}

TEST_CASE("narrow phase: heightfield pairs against the whole surface, on every target",
          "[narrow_phase][heightfield]") {
  std::mt19937 rng(77);
  const Terrain terrain(17, 21, 1.0f, 0.8f, rng, 0.12f);
  const double cell = 0.1, exact_range = 0.5 * cell;
  const std::vector<ShapeGeometry> others = {
      ShapeOf(ShapeType::kSphere, 0.11f), ShapeOf(ShapeType::kCapsule, 0.05f, 0.2f),
      ShapeOf(ShapeType::kCylinder, 0.08f, 0.12f), ShapeOf(ShapeType::kBox, 0.1f, 0.15f, 0.07f)};
  for (const ShapeGeometry& other : others) {
    const Pair pair{terrain.shape, other};
    INFO("pair " << PairName(pair));
    constexpr size_t kLanes = 300;
    Scene scene = TerrainScene(pair, kLanes, rng);
    const PaddedLanes contacts = test::CollideOnEveryTarget(pair, scene, 0.0f);
    const size_t slots = ContactSlotCount(pair.a.type, pair.b.type);
    const double rounding = Rounding(other);
    size_t exact = 0, beyond = 0, above = 0;
    for (size_t lane = 0; lane < kLanes; ++lane) {
      INFO("lane " << lane);
      double fa[12], fb[12];
      scene.Frame(scene.frames_a, lane, fa);
      scene.Frame(scene.frames_b, lane, fb);
      for (size_t slot = 0; slot < slots; ++slot) {
        INFO("slot " << slot);
        const float distance = contacts.Lane(kContactArrays * slot)[lane];
        double p[3], n[3], pa[3], pb[3], source[3];
        for (int k = 0; k < 3; ++k) {
          p[k] = contacts.Lane(kContactArrays * slot + 1 + k)[lane];
          n[k] = contacts.Lane(kContactArrays * slot + 4 + k)[lane];
        }
        if (distance == kNoContact) {
          // Only a point beyond the rectangle or half a cell above the top has none: the slot's
          // source point is unknown here, so the shape must reach there.
          const double centre = ReferenceShapeDistance(terrain.shape, fa, fb);
          const bool centre_beyond = std::isinf(centre);
          double local[3] = {0, 0, 0};
          for (int k = 0; k < 3; ++k) {
            for (int j = 0; j < 3; ++j) local[k] += fa[3 + 3 * j + k] * (fb[j] - fa[j]);
          }
          const double reach = test::Reach(other) * 2;
          const bool sideways = centre_beyond ||
                                std::fabs(local[0]) > terrain.shape.size[0] - reach ||
                                std::fabs(local[1]) > terrain.shape.size[1] - reach;
          const bool high = local[2] > terrain.shape.top + exact_range - reach;
          beyond += sideways;
          above += high && !sideways;
          CHECK((sideways || high));
          continue;
        }
        REQUIRE(std::fabs(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] - 1.0) < 1e-5);
        for (int k = 0; k < 3; ++k) {
          pa[k] = p[k] - n[k] * distance / 2;
          pb[k] = p[k] + n[k] * distance / 2;
          source[k] = pb[k] + n[k] * rounding;  // the sphere's centre, or the point itself
        }
        INFO("distance " << distance);
        // The surface point on the terrain; the shape's on the shape (a capsule's middle and end
        // spheres may lie inside it where it is tilted).
        CHECK(std::fabs(SurfacePointDistance(terrain.shape, fa, pa)) < kTolerance);
        const double on_b = ReferenceShapeDistance(other, fb, pb);
        if (other.type == ShapeType::kCapsule) {
          CHECK(on_b < kTolerance);
        } else {
          CHECK(std::fabs(on_b) < kTolerance);
        }
        // The distance of the slot's point to the whole surface, where it is within half a cell.
        const double reference = ReferenceShapeDistance(terrain.shape, fa, source);
        INFO("reference " << reference);
        REQUIRE(std::isfinite(reference));
        if (std::fabs(reference) < exact_range) {
          ++exact;
          CHECK(std::fabs(distance - (reference - rounding)) < kTolerance);
        } else {
          CHECK(distance <= reference - rounding + kTolerance);  // a surface point, not nearer
        }
      }
    }
    CHECK(exact > kLanes / 3);
    CHECK(beyond > 0);
    CHECK(above > 0);
  }
}

constexpr double kIdentity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

TEST_CASE("narrow phase: a flat heightfield gives the plane's contacts, a ramp its normal",
          "[narrow_phase][heightfield]") {
  std::mt19937 rng(5);
  const double origin[3] = {0.2, -0.1, 0.3};
  Terrain flat(9, 13, 1.2f, 0.8f, rng, 0.0f);
  for (float& h : flat.heights) h = 0.25f;
  flat.shape.top = 0.25f;
  const std::vector<ShapeGeometry> others = {
      ShapeOf(ShapeType::kSphere, 0.11f), ShapeOf(ShapeType::kCapsule, 0.05f, 0.2f),
      ShapeOf(ShapeType::kCylinder, 0.08f, 0.12f), ShapeOf(ShapeType::kBox, 0.1f, 0.15f, 0.07f)};
  SECTION("flat: every slot as the plane 25 cm above the frame") {
    const double plane_origin[3] = {origin[0], origin[1], origin[2] + 0.25};
    const ShapeGeometry plane = ShapeOf(ShapeType::kPlane, 0);
    for (const ShapeGeometry& other : others) {
      INFO("shape " << static_cast<int>(other.type));
      for (int trial = 0; trial < 20; ++trial) {
        double m[9], centre[3] = {origin[0] + 0.5, origin[1] - 0.2, origin[2] + 0.3};
        RandomRotation(rng, m);
        Scene field(1), against_plane(1);
        SetFrame(field.frames_a, 0, origin, kIdentity);
        SetFrame(field.frames_b, 0, centre, m);
        SetFrame(against_plane.frames_a, 0, plane_origin, kIdentity);
        SetFrame(against_plane.frames_b, 0, centre, m);
        const PaddedLanes on_field = Collide({flat.shape, other}, field, 0.0f);
        const PaddedLanes on_plane = Collide({plane, other}, against_plane, 0.0f);
        // The plane's slots: the same points (the capsule's two ends first, then its middle,
        // which the plane lacks), but for points more than half a cell (10 cm) above the top.
        for (size_t slot = 0; slot < ContactSlotCount(plane.type, other.type); ++slot) {
          const double rounding =
              other.type == ShapeType::kSphere || other.type == ShapeType::kCapsule ? other.size[0]
                                                                                    : 0.0;
          const float plane_distance = on_plane.Lane(kContactArrays * slot)[0];
          INFO("slot " << slot << " plane distance " << plane_distance);
          if (plane_distance + rounding >= 0.1 + 1e-5) {
            CHECK(on_field.Lane(kContactArrays * slot)[0] == kNoContact);
            continue;
          }
          REQUIRE(plane_distance + rounding < 0.1 - 1e-5);
          for (size_t k = 0; k < kContactArrays; ++k) {
            INFO("array " << k);
            CHECK(on_field.Lane(kContactArrays * slot + k)[0] ==
                  Approx(on_plane.Lane(kContactArrays * slot + k)[0]).margin(1e-5));
          }
        }
      }
    }
  }
  SECTION("a ramp rising 1 in 4 along x: a sphere's normal and distance are its plane's") {
    Terrain ramp(5, 11, 1.0f, 0.5f, rng, 0.0f);
    for (uint32_t r = 0; r < 5; ++r) {
      for (uint32_t c = 0; c < 11; ++c) ramp.heights[r * 11 + c] = 0.25f * (0.2f * c - 1.0f);
    }
    ramp.shape.top = 0.25f;
    const double length = std::sqrt(1.0 + 0.0625);
    const double normal[3] = {-0.25 / length, 0, 1 / length};
    for (double x : {-0.63, -0.1, 0.0, 0.37, 0.81}) {
      const double height = 0.25 * x, lift = 0.08;
      const double centre[3] = {origin[0] + x, origin[1] + 0.13, origin[2] + height + lift};
      Scene scene(1);
      SetFrame(scene.frames_a, 0, origin, kIdentity);
      SetFrame(scene.frames_b, 0, centre, kIdentity);
      const PaddedLanes out = Collide({ramp.shape, others[0]}, scene, 0.0f);
      INFO("x " << x);
      CHECK(out.Lane(0)[0] == Approx(lift / length - 0.11).margin(1e-6));
      for (int k = 0; k < 3; ++k) CHECK(out.Lane(4 + k)[0] == Approx(normal[k]).margin(1e-6));
    }
  }
}

TEST_CASE("narrow phase: a heightfield against a point that is not a number reads inside its grid",
          "[narrow_phase][heightfield]") {
  // Outside the contract (frames are finite), but a robot's NaN state reaches the narrow phase
  // before its step's guard restores it: such a lane gets no contact, and no gather leaves the
  // grid (the sanitizer build would see it), whatever its neighbours.
  std::mt19937 rng(8);
  const Terrain terrain(5, 6, 1.0f, 1.0f, rng, 0.1f);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = HUGE_VAL;
  const double centres[4][3] = {{nan, 0.1, 0.2}, {0.2, nan, 0.1}, {nan, nan, nan}, {inf, -inf, 0}};
  const double origin[3] = {0, 0, 0};
  Scene scene(4);
  for (size_t lane = 0; lane < 4; ++lane) {
    SetFrame(scene.frames_a, lane, origin, kIdentity);
    SetFrame(scene.frames_b, lane, centres[lane], kIdentity);
  }
  const PaddedLanes out = Collide({terrain.shape, ShapeOf(ShapeType::kSphere, 0.1f)}, scene, 0.0f);
  for (size_t lane = 0; lane < 4; ++lane) CHECK(out.Lane(0)[lane] == kNoContact);
}

}  // namespace
}  // namespace swarm
