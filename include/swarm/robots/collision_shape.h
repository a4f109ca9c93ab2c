// The collision shapes of a robot and its world, as a model file gives them (an MJCF file's geoms
// that collide: swarm/robots/mjcf_robot.h), with MuJoCo's shape conventions and contact
// parameters (MuJoCo's XML reference, "geom"), and the rules that decide which pairs of them may
// touch: MuJoCo's contype / conaffinity bit test, no pair within one link or between a link and
// its parent (unless the parent is the world), the file's excluded link pairs, and the file's
// explicit pairs, which touch whatever their bits say, with their own parameters.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "swarm/kernels/collision/narrow_phase.h"

namespace swarm {

// MuJoCo's sizes: plane (half x, half y, grid spacing), heightfield (half x, half y, the depth of
// its base below z = 0: MuJoCo's hfield size without the elevation, which its heights include),
// sphere (radius), capsule and cylinder (radius, half length along z), ellipsoid (three radii),
// box (three half sizes). The narrow phase's types (swarm/kernels/collision/narrow_phase.h), in
// MuJoCo's order.
using CollisionShapeType = ShapeType;
const char* CollisionShapeTypeName(CollisionShapeType type);  // "plane", "heightfield", ...

// A heightfield's grid: rows x columns heights in metres above its frame's z = 0, row-major, row r
// at y = -half_y + 2 half_y r / (rows - 1) and column c at x = -half_x + 2 half_x c / (columns - 1)
// (MuJoCo's hfield_data times its elevation size). Shared, never changed, by the shapes and
// collision plans that use it.
struct Heightfield {
  uint32_t rows = 0, columns = 0;
  std::vector<float> heights;
};

struct CollisionShape {
  std::string name;  // the geom's name, or "" when it has none
  CollisionShapeType type = CollisionShapeType::kSphere;
  int link = -1;  // the robot's link that carries it, or -1: fixed in the world
  // Its frame in the link's frame (in the world's for link -1): position and quaternion x y z w.
  std::array<double, 3> position{0, 0, 0};
  std::array<double, 4> quaternion{0, 0, 0, 1};
  std::array<double, 3> size{0, 0, 0};
  std::shared_ptr<const Heightfield> heightfield;  // a heightfield's grid (that type only)
  uint32_t contype = 1, conaffinity = 1;
  int condim = 3, priority = 0;
  std::array<double, 3> friction{1, 0.005, 0.0001};  // sliding, torsional, rolling
  std::array<double, 2> solref{0.02, 1};
  std::array<double, 5> solimp{0.9, 0.95, 0.001, 0.5, 2};
  double margin = 0, gap = 0;
  double solmix = 1;  // its weight in a pair's solref and solimp (MuJoCo's solmix)
};

// Two shapes that touch whatever their contype and conaffinity, with these parameters (MJCF
// <pair>: condim, friction sliding x2, torsional, rolling x2, solref, solimp, margin, gap).
struct CollisionPair {
  uint32_t shape1 = 0, shape2 = 0;
  int condim = 3;
  std::array<double, 5> friction{1, 1, 0.005, 0.0001, 0.0001};
  std::array<double, 2> solref{0.02, 1};
  std::array<double, 5> solimp{0.9, 0.95, 0.001, 0.5, 2};
  double margin = 0, gap = 0;
};

// Two bodies whose shapes never touch each other (MJCF <exclude>): their links (-1: the world)
// and the model file's bodies (MuJoCo's body indices; a static body is not the world).
struct CollisionExclude {
  int link1 = -1, link2 = -1;
  int body1 = 0, body2 = 0;
};

}  // namespace swarm
