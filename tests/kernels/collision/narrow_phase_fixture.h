// Test fixture of the narrow phase (swarm/kernels/collision/narrow_phase.h): every supported pair
// of shape types with robot-sized shapes, random poses near contact, and one call over them.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "swarm/core/state_hash.h"
#include "swarm/kernels/collision/narrow_phase.h"
#include "tests/kernels/robots/joint_lanes_fixture.h"
#include "tests/support/for_each_target.h"
#include "tests/support/golden.h"

namespace swarm::test {

struct Pair {
  ShapeGeometry a, b;
};

// Every supported pair, with sizes like a robot's collision geoms.
inline std::vector<Pair> AllPairs() {
  const ShapeGeometry plane = ShapeOf(ShapeType::kPlane, 0);
  const ShapeGeometry sphere = ShapeOf(ShapeType::kSphere, 0.11f);
  const ShapeGeometry capsule = ShapeOf(ShapeType::kCapsule, 0.05f, 0.2f);
  const ShapeGeometry cylinder = ShapeOf(ShapeType::kCylinder, 0.08f, 0.12f);
  const ShapeGeometry box = ShapeOf(ShapeType::kBox, 0.1f, 0.15f, 0.07f);
  const ShapeGeometry other_box = ShapeOf(ShapeType::kBox, 0.2f, 0.06f, 0.12f);
  return {{plane, sphere},    {plane, capsule},    {plane, cylinder},  {plane, box},
          {sphere, sphere},   {sphere, capsule},   {sphere, cylinder}, {sphere, box},
          {capsule, capsule}, {capsule, cylinder}, {capsule, box},     {cylinder, cylinder},
          {cylinder, box},    {box, other_box}};
}

// The rough reach of a shape from its centre.
inline double Reach(const ShapeGeometry& shape) {
  switch (shape.type) {
    case ShapeType::kSphere:
      return shape.size[0];
    case ShapeType::kCapsule:
    case ShapeType::kCylinder:
      return shape.size[0] + 0.5 * shape.size[1];
    case ShapeType::kBox:
      return (shape.size[0] + shape.size[1] + shape.size[2]) / 2;
    default:
      return 0;
  }
}

// A uniformly random rotation, row-major.
inline void RandomRotation(std::mt19937& rng, double m[9]) {
  std::normal_distribution<double> normal;
  double q[4];
  double norm = 0;
  for (double& v : q) {
    v = normal(rng);
    norm += v * v;
  }
  norm = std::sqrt(norm);
  const double x = q[0] / norm, y = q[1] / norm, z = q[2] / norm, w = q[3] / norm;
  const double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
                       2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                       2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
  std::memcpy(m, r, sizeof(r));
}

struct Scene {
  PaddedLanes frames_a, frames_b;
  explicit Scene(size_t lanes)
      : frames_a(lanes, kShapeFrameArrays, kJointPadding),
        frames_b(lanes, kShapeFrameArrays, kJointPadding) {}
  void Frame(const PaddedLanes& frames, size_t lane, double out[12]) const {
    for (size_t k = 0; k < kShapeFrameArrays; ++k) out[k] = frames.Lane(k)[lane];
  }
};

inline void SetFrame(PaddedLanes& frames, size_t lane, const double position[3],
                     const double m[9]) {
  for (size_t k = 0; k < 3; ++k) frames.Lane(k)[lane] = static_cast<float>(position[k]);
  for (size_t k = 0; k < 9; ++k) frames.Lane(3 + k)[lane] = static_cast<float>(m[k]);
}

// Random poses near contact: b's centre at a random direction from a's, at 0.4 to 1.3 times the
// sum of their reaches (a plane: b's centre up to 1.3 reaches above or below it).
inline Scene RandomScene(const Pair& pair, size_t lanes, std::mt19937& rng) {
  Scene scene(lanes);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_real_distribution<double> spread(0.4, 1.3);
  for (size_t lane = 0; lane < lanes; ++lane) {
    double ma[9], mb[9], ca[3], cb[3];
    RandomRotation(rng, ma);
    RandomRotation(rng, mb);
    for (double& c : ca) c = unit(rng);
    double dir[3], norm = 0;
    for (double& v : dir) {
      v = unit(rng);
      norm += v * v;
    }
    norm = std::sqrt(norm);
    const double distance = pair.a.type == ShapeType::kPlane
                                ? 1.3 * Reach(pair.b) * unit(rng)
                                : spread(rng) * (Reach(pair.a) + Reach(pair.b));
    for (int k = 0; k < 3; ++k) {
      cb[k] = ca[k] + (pair.a.type == ShapeType::kPlane ? distance * ma[3 * k + 2]
                                                        : distance * dir[k] / norm);
    }
    SetFrame(scene.frames_a, lane, ca, ma);
    SetFrame(scene.frames_b, lane, cb, mb);
  }
  return scene;
}

inline PaddedLanes Collide(const Pair& pair, Scene& scene, float margin) {
  const size_t lanes = scene.frames_a.count();
  PaddedLanes contacts(lanes, kContactArrays * ContactSlotCount(pair.a.type, pair.b.type),
                       kJointPadding);
  CollideShapes(pair.a, pair.b, View(scene.frames_a), View(scene.frames_b), margin, View(contacts));
  return contacts;
}

// The shape the kernels collide: a cylinder against a capsule, cylinder or box is its capsule.
inline ShapeGeometry AsCollided(const ShapeGeometry& shape, const ShapeGeometry& other) {
  ShapeGeometry collided = shape;
  const bool round = other.type == ShapeType::kCapsule || other.type == ShapeType::kCylinder ||
                     other.type == ShapeType::kBox;
  if (shape.type == ShapeType::kCylinder && round) collided.type = ShapeType::kCapsule;
  return collided;
}

inline std::string PairName(const Pair& pair) {
  static const char* kNames[] = {"plane",     "heightfield", "sphere", "capsule",
                                 "ellipsoid", "cylinder",    "box"};
  return std::string(kNames[static_cast<int>(pair.a.type)]) + "-" +
         kNames[static_cast<int>(pair.b.type)];
}

inline bool SameBits(const PaddedLanes& x, const PaddedLanes& y) {
  return x.count() == y.count() && x.lanes() == y.lanes() &&
         std::memcmp(x.data(), y.data(),
                     x.lanes() * RoundUpToVector<float>(x.count()) * sizeof(float)) == 0;
}

// The pair's contacts at the scene's poses on every compiled target: the same bits on each,
// padding untouched, and the x86-64 bits (golden key kernels.narrow_phase.<pair>.<lanes>_lanes)
// on every target here and under qemu-aarch64.
inline PaddedLanes CollideOnEveryTarget(const Pair& pair, Scene& scene, float margin) {
  std::vector<PaddedLanes> results;
  ForEachTarget([&](const TargetUnderTest& target) {
    INFO("target " << target.name);
    results.push_back(Collide(pair, scene, margin));
    REQUIRE_FALSE(results.back().PaddingMismatch(kJointPadding).has_value());
    REQUIRE(SameBits(results.back(), results.front()));
  });
  StateHasher hasher;
  const PaddedLanes& contacts = results.front();
  for (size_t k = 0; k < contacts.lanes(); ++k) {
    hasher.Add(ConstFloatView{contacts.Lane(k), contacts.count()});
  }
  CheckGolden(
      "kernels.narrow_phase." + PairName(pair) + "." + std::to_string(contacts.count()) + "_lanes",
      hasher.Digest());
  return std::move(results.front());
}

}  // namespace swarm::test
