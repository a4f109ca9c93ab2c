// The narrow phase (swarm/kernels/collision/narrow_phase.h) beside MuJoCo 2.2.2's collision
// functions (mjCOLLISIONFUNC, bench/mujoco_collision.h) at the same random poses, both judged
// against the exact double-precision reference (swarm/kernels/collision/narrow_phase_reference.h):
// where MuJoCo computes the same geometry exactly (spheres, capsules, planes, sphere-box and
// capsule-box with the sphere's centre or the capsule's segment outside the box) swarm's deepest
// contact equals MuJoCo's; everywhere swarm's deepest contact is at
// least as close to the exact signed distance as MuJoCo's, and the test reports how often and by
// how much MuJoCo differs from it (its box-box and its libccd-based cylinder pairs).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "bench/mujoco_collision.h"
#include "swarm/kernels/collision/narrow_phase.h"
#include "swarm/kernels/collision/narrow_phase_reference.h"
#include "tests/kernels/collision/narrow_phase_fixture.h"

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

bool HasCylinder(const Pair& pair) {
  return pair.a.type == ShapeType::kCylinder || pair.b.type == ShapeType::kCylinder;
}

TEST_CASE("narrow phase: the deepest contact against MuJoCo's at the same poses",
          "[narrow_phase][mujoco]") {
  constexpr double kMargin = 1.0;  // MuJoCo reports contacts up to this far apart
  constexpr double kTolerance = 2e-5;
  for (const Pair& pair : AllPairs()) {
    INFO("pair " << PairName(pair));
    Result<bench::MujocoShapePair> mujoco = bench::MujocoShapePair::Make(pair.a, pair.b);
    REQUIRE(mujoco.ok());
    std::mt19937 rng(4321);
    constexpr size_t kLanes = 300;
    Scene scene = RandomScene(pair, kLanes, rng);
    const PaddedLanes contacts = Collide(pair, scene, static_cast<float>(kMargin));
    const size_t slots = ContactSlotCount(pair.a.type, pair.b.type);
    const bool boxes = pair.a.type == ShapeType::kBox && pair.b.type == ShapeType::kBox;
    // MuJoCo computes exactly what swarm does here (the stand-in cylinder pairs excepted).
    const bool same_geometry = !boxes && !HasCylinder(pair);
    const ShapeGeometry a = AsCollided(pair.a, pair.b), b = AsCollided(pair.b, pair.a);
    size_t compared = 0, near = 0, mujoco_off = 0;
    double mujoco_worst = 0, swarm_worst = 0;
    std::vector<mjContact> found(mjMAXCONPAIR);
    for (size_t lane = 0; lane < kLanes; ++lane) {
      INFO("lane " << lane);
      float fa[12], fb[12];
      double da[12], db[12], normal[3];
      for (size_t k = 0; k < 12; ++k) {
        fa[k] = scene.frames_a.Lane(k)[lane];
        fb[k] = scene.frames_b.Lane(k)[lane];
        da[k] = fa[k];
        db[k] = fb[k];
      }
      const int count = mujoco->Collide(fa, fb, kMargin, found.data());
      if (count == 0) continue;
      double theirs = 1e300;
      for (int c = 0; c < count; ++c) theirs = std::min(theirs, found[c].dist);
      double ours = 1e300;
      for (size_t slot = 0; slot < slots; ++slot) {
        const float distance = contacts.Lane(kContactArrays * slot)[lane];
        if (distance != kNoContact) ours = std::min(ours, double{distance});
      }
      if (ours == 1e300) continue;  // boxes farther apart than the margin along a face axis
      ++compared;
      // The exact distance of what swarm collides (a cylinder's capsule stand-in) and of the
      // file's shapes, which MuJoCo collides.
      const double exact = ReferenceSignedDistance(a, da, b, db, normal);
      const double exact_shapes = ReferenceSignedDistance(pair.a, da, pair.b, db, normal);
      const bool core_in_box =
          b.type == ShapeType::kBox && a.type != ShapeType::kPlane && exact < -a.size[0] + 1e-4;
      INFO("swarm " << ours << " MuJoCo " << theirs << " exact " << exact << " exact shapes "
                    << exact_shapes);
      // MuJoCo 2.2.2 stops at a sphere's centre or a capsule's segment inside a box (it reports
      // -radius there): equal only with the core outside.
      if (same_geometry && !core_in_box) CHECK(std::fabs(ours - theirs) < kTolerance);
      const bool stand_in = a.type != pair.a.type || b.type != pair.b.type;
      if (!stand_in && !(core_in_box && a.type == ShapeType::kCapsule) && !(boxes && exact > 0)) {
        CHECK(std::fabs(ours - exact) <= std::fabs(theirs - exact) + kEdgeAxisBias + kTolerance);
      }
      // Near contact (within 1 cm) how far each is from the exact distance of the file's shapes.
      if (exact_shapes < 0.01) {
        ++near;
        const double off = std::fabs(theirs - exact_shapes);
        if (off > 1e-4) ++mujoco_off;
        mujoco_worst = std::max(mujoco_worst, off);
        swarm_worst = std::max(swarm_worst, std::fabs(ours - exact_shapes));
      }
    }
    CHECK(compared > kLanes / 4);
    WARN(PairName(pair) << ": " << near << " poses within 1 cm of contact; from the exact distance "
                        << "MuJoCo is more than 0.1 mm off in " << mujoco_off << ", by up to "
                        << mujoco_worst << " m; swarm by up to " << swarm_worst << " m");
  }
}

}  // namespace
}  // namespace swarm

namespace swarm {
namespace {

// Spheres pressed 0 to 1 cm into a heightfield of gentle random bumps (2 cm on 10 cm cells),
// swarm's contact and MuJoCo's deepest (its prisms, one per triangle near the sphere, each
// collided by MPR) both judged against the exact distance to the whole surface: swarm's within
// 2e-5 m, and never farther from it than MuJoCo's; the test reports MuJoCo's worst error.
TEST_CASE("narrow phase: heightfield spheres against MuJoCo's at the same poses",
          "[narrow_phase][mujoco][heightfield]") {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> bump(0.0f, 0.02f);
  std::vector<float> heights(21 * 21);
  for (float& h : heights) h = bump(rng);
  ShapeGeometry field = ShapeOf(ShapeType::kHeightfield, 1.0f, 1.0f, 0.1f);
  field.heights = heights.data();
  field.rows = field.columns = 21;
  field.top = 0.02f;
  const ShapeGeometry sphere = ShapeOf(ShapeType::kSphere, 0.03f);
  Result<bench::MujocoShapePair> mujoco = bench::MujocoShapePair::Make(field, sphere);
  REQUIRE(mujoco.ok());
  constexpr size_t kLanes = 200;
  Scene scene(kLanes);
  const double identity[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::uniform_real_distribution<double> place(-0.9, 0.9), depth(0.0, 0.01);
  for (size_t lane = 0; lane < kLanes; ++lane) {
    double centre[3] = {place(rng), place(rng), 1.0};
    const double rotation[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    // The centre the chosen depth below where the sphere would touch.
    const double gap = ReferenceShapeDistance(field, identity, centre) - sphere.size[0];
    centre[2] -= gap + depth(rng);
    test::SetFrame(scene.frames_a, lane, identity, rotation);
    test::SetFrame(scene.frames_b, lane, centre, rotation);
  }
  const PaddedLanes contacts = Collide({field, sphere}, scene, 0.0f);
  std::vector<mjContact> found(mjMAXCONPAIR);
  double mujoco_worst = 0.0, swarm_worst = 0.0;
  size_t mujoco_off = 0;
  for (size_t lane = 0; lane < kLanes; ++lane) {
    INFO("lane " << lane);
    float fa[12], fb[12];
    double centre[3];
    for (size_t k = 0; k < 12; ++k) {
      fa[k] = scene.frames_a.Lane(k)[lane];
      fb[k] = scene.frames_b.Lane(k)[lane];
    }
    for (int k = 0; k < 3; ++k) centre[k] = fb[k];
    const double exact = ReferenceShapeDistance(field, identity, centre) - sphere.size[0];
    const double ours = contacts.Lane(0)[lane];
    const int count = mujoco->Collide(fa, fb, 0.0, found.data());
    double theirs = 1e300;
    for (int c = 0; c < count; ++c) theirs = std::min(theirs, found[c].dist);
    INFO("exact " << exact << " swarm " << ours << " MuJoCo " << theirs << " (" << count
                  << " contacts)");
    CHECK(std::fabs(ours - exact) < 2e-5);
    swarm_worst = std::max(swarm_worst, std::fabs(ours - exact));
    if (count > 0) {
      const double off = std::fabs(theirs - exact);
      mujoco_worst = std::max(mujoco_worst, off);
      mujoco_off += off > 1e-4;
      CHECK(std::fabs(ours - exact) <= off + 2e-5);
    }
  }
  WARN("heightfield-sphere, " << kLanes << " poses 0 to 1 cm deep: swarm within " << swarm_worst
                              << " m of the exact distance; MuJoCo off by more than 0.1 mm in "
                              << mujoco_off << ", by up to " << mujoco_worst << " m");
}

}  // namespace
}  // namespace swarm
