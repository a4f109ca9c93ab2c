// The pairs of collision shapes that may touch, fixed per model: the list every lane of a batch
// evaluates with the narrow phase (swarm/kernels/collision/narrow_phase.h), in a fixed order, each
// with the contact parameters MuJoCo would give it (mj_collideGeoms, "Contact parameters" in
// MuJoCo's documentation).
//
// The rules are MuJoCo's:
// - a file's explicit pairs (<pair>) always, with their own parameters;
// - every other pair of shapes (not already an explicit pair) whose contype and conaffinity bits
//   meet ((contype1 & conaffinity2) | (contype2 & conaffinity1) nonzero), that are not on the same
//   rigid body (links joined by fixed joints, and everything fixed in the world, are one body),
//   not on a body and its parent body unless one is the world (unless the file's filterparent flag
//   is off), and whose bodies are not an <exclude>d pair. Their parameters mix the two shapes':
//   margin and gap the larger; condim, friction, solref and solimp the higher priority shape's,
//   or with equal priorities the larger condim and friction (per component) and solref, solimp
//   weighted by solmix (a solref with a negative entry: the smaller of each);
// - plane-plane pairs are dropped (neither moves against the other; MuJoCo has no narrow phase for
//   them); a pair with an ellipsoid is an error naming it, as the narrow phase has none.
// Within a pair, the shape of the lower type comes first (MuJoCo's order: the contact normal
// points from shape1 to shape2). Order: the explicit pairs in file order, then the others by
// (shape1, shape2) index.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "swarm/core/status.h"
#include "swarm/robots/collision_shape.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

struct MjcfRobot;

struct ContactPair {
  uint32_t shape1 = 0, shape2 = 0;
  bool explicit_pair = false;  // from a <pair>
  int condim = 3;
  // Sliding (twice), torsional, rolling (twice), as MuJoCo's contact.friction.
  std::array<double, 5> friction{1, 1, 0.005, 0.0001, 0.0001};
  std::array<double, 2> solref{0.02, 1};
  std::array<double, 5> solimp{0.9, 0.95, 0.001, 0.5, 2};
  double margin = 0, gap = 0;
};

// What decides the pairs of a robot's shapes.
struct ContactPairRules {
  const RobotModel* model = nullptr;
  const std::vector<CollisionShape>* shapes = nullptr;
  // Per shape: the body it belongs to, as the excludes name bodies (an MJCF file's body index;
  // empty: its link).
  const std::vector<int>* shape_body = nullptr;
  // Per link: -1 for the massless links of a body's extra joints (MjcfRobot::link_body), which
  // are not bodies of their own: a body's parent is the body above them. Empty: every link.
  const std::vector<int>* link_body = nullptr;
  const std::vector<CollisionPair>* pairs = nullptr;
  const std::vector<CollisionExclude>* excludes = nullptr;
  bool filter_parent = true;
};

Result<std::vector<ContactPair>> BuildContactPairs(const ContactPairRules& rules);

// The parameters MuJoCo gives a pair of shapes a and b (above; shape1, shape2 and explicit_pair
// left as they are). For an explicit pair's parameters the file leaves out, MuJoCo's compiler
// takes the smaller solref of the two per component where dynamic pairs mix them with solmix
// (its test of the pair's own, still undefined, solref for "standard" is false): with
// `explicit_pair` that is what this gives.
ContactPair MixContactParameters(const CollisionShape& a, const CollisionShape& b,
                                 bool explicit_pair = false);

// The pairs of an MJCF robot's shapes (swarm/robots/mjcf_robot.h), by the file's rules; empty
// when the file turns contacts off.
Result<std::vector<ContactPair>> MjcfContactPairs(const MjcfRobot& robot);

}  // namespace swarm
