// Collision detection over a robot batch's lanes: a model's collision shapes
// (swarm/robots/collision_shape.h) and its contact pairs (swarm/robots/contact_pairs.h) made ready
// for the narrow phase (swarm/kernels/collision/narrow_phase.h), and the pass that turns every
// robot's link poses into its contacts: each shape's frame from its link's pose (world shapes
// keep theirs), then every pair's narrow phase, in the pair list's order.
//
// Contacts are slots: pair p writes ContactSlotCount(its types) consecutive slots from
// first_slot(p), each kContactArrays arrays (distance, point x y z, normal x y z from the pair's
// shape1 to its shape2) per robot; a slot a robot does not use has distance kNoContact. Which
// slots touch is the contact model's rule (MuJoCo's: distance < the pair's margin). Every robot's
// contacts are the same fixed sequence of operations on every SIMD target, alone or in any batch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "swarm/core/status.h"
#include "swarm/kernels/base/views.h"
#include "swarm/kernels/collision/narrow_phase.h"
#include "swarm/robots/collision_shape.h"
#include "swarm/robots/contact_pairs.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

// What a batch collides: shapes on the model's links (or fixed in the world) and the pairs.
struct CollisionModel {
  std::vector<CollisionShape> shapes;
  std::vector<ContactPair> pairs;
  // MuJoCo's friction cone for the pairs' contacts (option cone and impratio). swarm's friction
  // cone is elliptic either way; with MuJoCo's pyramidal cone, whose regularisation stiffens the
  // normal direction too, the torque step's contacts take MuJoCo's effective normal stiffness
  // (engine/robots/world_contacts.h).
  bool pyramidal_cone = false;
  double impratio = 1.0;
};

class CollisionPlan {
 public:
  // Errors name the shape or pair: a link the model lacks, sizes or frames that are not finite
  // (a quaternion of zero length), a size the narrow phase needs that is not > 0, a pair naming a
  // shape the model lacks or of types with no narrow phase (an ellipsoid, two planes), a margin
  // not finite >= 0.
  static Result<CollisionPlan> Make(const RobotModel& model, const CollisionModel& collisions);

  size_t shape_count() const { return shapes_.size(); }
  size_t pair_count() const { return pairs_.size(); }
  size_t slot_count() const { return slot_count_; }
  // The first slot of pair p and its pair's index of every slot.
  size_t first_slot(size_t pair) const { return pairs_[pair].first_slot; }
  uint32_t pair_of_slot(size_t slot) const { return pair_of_slot_[slot]; }
  const CollisionModel& model() const { return model_; }

  // Arrays of the scratch Detect needs per robot: every shape's frame.
  size_t frame_arrays() const { return kShapeFrameArrays * shapes_.size(); }

  // The contacts of robots with these link poses (kPoseArrays per link, the model's links:
  // RobotBatch::link_poses()) into `contacts` (kContactArrays x slot_count() arrays), through
  // `frames` (frame_arrays() arrays); all views of the same robots.
  void Detect(const ConstLanesView& link_poses, const LanesView& frames,
              const LanesView& contacts) const;

 private:
  struct Shape {
    int link = -1;
    ShapeGeometry geometry;
    float position[3] = {0, 0, 0};
    float rotation[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  };
  struct Pair {
    uint32_t shape1 = 0, shape2 = 0;
    float margin = 0;
    size_t first_slot = 0, slots = 0;
  };
  CollisionModel model_;
  std::vector<Shape> shapes_;
  std::vector<Pair> pairs_;
  std::vector<uint32_t> pair_of_slot_;
  size_t slot_count_ = 0;
};

// A URDF robot's collision model: its <collision> primitives (RobotModel::collision_shapes, read
// when UrdfOptions::collisions asks) and `world` shapes fixed in the world (link -1: a floor, a
// table), paired as MuJoCo pairs a URDF's geoms: every shape with every other but those on one
// rigid body (links joined by fixed joints) or on a body and its parent body, with MuJoCo's
// default contact parameters mixed (swarm/robots/contact_pairs.h).
Result<CollisionModel> UrdfCollisionModel(const RobotModel& model,
                                          const std::vector<CollisionShape>& world = {});

struct MjcfRobot;

// An MJCF robot's collision model (swarm/robots/mjcf_robot.h): its collision shapes and the
// pairs of its file's rules (MjcfContactPairs); no pair when the file turns contacts off.
Result<CollisionModel> MjcfCollisionModel(const MjcfRobot& robot);

}  // namespace swarm
