// Collision detection over a robot batch's lanes (swarm/robots/robot_collisions.h).
#include "swarm/robots/robot_collisions.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/robots/frame_math.h"
#include "swarm/kernels/robots/robot_kinematics.h"
#include "swarm/robots/mjcf_robot.h"

namespace swarm {
namespace {

std::string NameOf(const std::vector<CollisionShape>& shapes, size_t s) {
  return "collision shape " +
         (shapes[s].name.empty() ? std::to_string(s) : "'" + shapes[s].name + "'");
}

bool AllFinite(const double* values, size_t count) {
  return std::all_of(values, values + count, [](double v) { return std::isfinite(v); });
}

// A heightfield's grid as the narrow phase needs it (ValidShapeGeometry checks the rest).
Status CheckHeightfield(const Heightfield* grid) {
  if (grid == nullptr) return InvalidArgument("a heightfield needs its grid of heights");
  if (grid->rows < 2 || grid->columns < 2 ||
      size_t{grid->rows} * grid->columns > kMaxHeightfieldPoints) {
    return InvalidArgument("a heightfield's grid needs 2 to " +
                           std::to_string(kMaxHeightfieldPoints) +
                           " points in at least 2 rows and 2 columns, not " +
                           std::to_string(grid->rows) + " x " + std::to_string(grid->columns));
  }
  if (grid->heights.size() != size_t{grid->rows} * grid->columns) {
    return InvalidArgument("a heightfield of " + std::to_string(grid->rows) + " x " +
                           std::to_string(grid->columns) + " points has " +
                           std::to_string(grid->heights.size()) + " heights");
  }
  const auto bad = std::find_if(grid->heights.begin(), grid->heights.end(),
                                [](float h) { return !std::isfinite(h); });
  if (bad != grid->heights.end()) {
    return InvalidArgument("height " + std::to_string(bad - grid->heights.begin()) +
                           " of the heightfield is not finite");
  }
  return Status{};
}

}  // namespace

Result<CollisionPlan> CollisionPlan::Make(const RobotModel& model,
                                          const CollisionModel& collisions) {
  CollisionPlan plan;
  plan.model_ = collisions;
  const std::vector<CollisionShape>& shapes = collisions.shapes;
  for (size_t s = 0; s < shapes.size(); ++s) {
    const CollisionShape& source = shapes[s];
    if (source.link < -1 || source.link >= static_cast<int>(model.links.size())) {
      return InvalidArgument(NameOf(shapes, s) + " is on link " + std::to_string(source.link) +
                             ", which the robot does not have");
    }
    const auto& q = source.quaternion;
    const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!AllFinite(source.position.data(), 3) || !AllFinite(q.data(), 4) || !(norm > 0.0) ||
        !std::isfinite(norm)) {
      return InvalidArgument(NameOf(shapes, s) +
                             ": its position and quaternion must be finite, the quaternion not "
                             "zero");
    }
    Shape shape;
    shape.link = source.link;
    shape.geometry.type = source.type;
    for (int k = 0; k < 3; ++k) shape.geometry.size[k] = static_cast<float>(source.size[k]);
    if (source.type == ShapeType::kHeightfield) {
      Status grid = CheckHeightfield(source.heightfield.get());
      if (!grid.ok()) return InvalidArgument(NameOf(shapes, s) + ": " + grid.message());
      shape.geometry.heights = source.heightfield->heights.data();
      shape.geometry.rows = source.heightfield->rows;
      shape.geometry.columns = source.heightfield->columns;
      const std::vector<float>& heights = source.heightfield->heights;
      shape.geometry.top = *std::max_element(heights.begin(), heights.end());
    }
    if (!ValidShapeGeometry(shape.geometry)) {
      return InvalidArgument(NameOf(shapes, s) + ": the sizes of a " +
                             CollisionShapeTypeName(source.type) + " must be finite and > 0");
    }
    const frame_math::Mat3 rotation =
        frame_math::RotationOf({q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm});
    for (int k = 0; k < 3; ++k) shape.position[k] = static_cast<float>(source.position[k]);
    for (int k = 0; k < 9; ++k) shape.rotation[k] = static_cast<float>(rotation[k]);
    plan.shapes_.push_back(shape);
  }
  for (size_t p = 0; p < collisions.pairs.size(); ++p) {
    const ContactPair& source = collisions.pairs[p];
    const std::string what = "contact pair " + std::to_string(p);
    if (source.shape1 >= shapes.size() || source.shape2 >= shapes.size()) {
      return InvalidArgument(what + " names a shape the robot does not have");
    }
    const ShapeType type1 = shapes[source.shape1].type, type2 = shapes[source.shape2].type;
    const size_t slots = ContactSlotCount(type1, type2);
    if (slots == 0) {
      return InvalidArgument(
          what + " (" + NameOf(shapes, source.shape1) + " and " + NameOf(shapes, source.shape2) +
          ") pairs a " + CollisionShapeTypeName(type1) + " with a " +
          CollisionShapeTypeName(type2) + ", which has no narrow phase (the lower type first)");
    }
    if (!(std::isfinite(source.margin) && source.margin >= 0.0)) {
      return InvalidArgument(what + ": its margin must be finite and >= 0");
    }
    Pair pair;
    pair.shape1 = source.shape1;
    pair.shape2 = source.shape2;
    pair.margin = static_cast<float>(source.margin);
    pair.first_slot = plan.slot_count_;
    pair.slots = slots;
    plan.pairs_.push_back(pair);
    plan.pair_of_slot_.insert(plan.pair_of_slot_.end(), slots, static_cast<uint32_t>(p));
    plan.slot_count_ += slots;
  }
  return plan;
}

Result<CollisionModel> UrdfCollisionModel(const RobotModel& model,
                                          const std::vector<CollisionShape>& world) {
  CollisionModel out;
  out.shapes = model.collision_shapes;
  for (const CollisionShape& shape : world) {
    if (shape.link != -1) {
      return InvalidArgument("world collision shape '" + shape.name +
                             "' must be fixed in the world (link -1), not on link " +
                             std::to_string(shape.link));
    }
    out.shapes.push_back(shape);
  }
  ContactPairRules rules;
  rules.model = &model;
  rules.shapes = &out.shapes;
  Result<std::vector<ContactPair>> pairs = BuildContactPairs(rules);
  if (!pairs.ok()) return pairs.status();
  out.pairs = std::move(pairs).value();
  return out;
}

Result<CollisionModel> MjcfCollisionModel(const MjcfRobot& robot) {
  Result<std::vector<ContactPair>> pairs = MjcfContactPairs(robot);
  if (!pairs.ok()) return pairs.status();
  return CollisionModel{robot.collision_shapes, std::move(pairs).value(), robot.pyramidal_cone,
                        robot.impratio};
}

// Declared in swarm/robots/mjcf_robot.h beside MjcfTorqueConfig; defined here with the collision
// model it adds.
Result<RobotBatchConfig> MjcfContactConfig(const MjcfRobot& robot) {
  RobotBatchConfig config = MjcfTorqueConfig(robot);
  Result<CollisionModel> collisions = MjcfCollisionModel(robot);
  if (!collisions.ok()) return collisions.status();
  config.collisions = std::move(collisions).value();
  config.torque.world_contacts = robot.contacts_enabled;
  return config;
}

void CollisionPlan::Detect(const ConstLanesView& link_poses, const LanesView& frames,
                           const LanesView& contacts) const {
  SWARM_ASSERT(frames.arrays == frame_arrays() && contacts.arrays == kContactArrays * slot_count_ &&
               SameCount(link_poses, frames, contacts));
  const size_t n = contacts.count;
  const auto frames_of = [&](size_t s) {
    return LanesView{frames.data + kShapeFrameArrays * s * frames.stride, n, frames.stride,
                     kShapeFrameArrays};
  };
  for (size_t s = 0; s < shapes_.size(); ++s) {
    const Shape& shape = shapes_[s];
    const LanesView out = frames_of(s);
    if (shape.link >= 0) {
      ShapeFramesFromPoses(link_poses, kPoseArrays * static_cast<size_t>(shape.link),
                           shape.position, shape.rotation, out);
      continue;
    }
    // Fixed in the world: the same frame in every lane.
    for (size_t k = 0; k < 3; ++k) std::fill_n(out.Array(k), n, shape.position[k]);
    for (size_t k = 0; k < 9; ++k) std::fill_n(out.Array(3 + k), n, shape.rotation[k]);
  }
  for (const Pair& pair : pairs_) {
    const LanesView out{contacts.data + kContactArrays * pair.first_slot * contacts.stride, n,
                        contacts.stride, kContactArrays * pair.slots};
    CollideShapes(shapes_[pair.shape1].geometry, shapes_[pair.shape2].geometry,
                  frames_of(pair.shape1), frames_of(pair.shape2), pair.margin, out);
  }
}

}  // namespace swarm
