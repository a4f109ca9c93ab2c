#include "swarm/robots/collision_shape.h"

namespace swarm {

const char* CollisionShapeTypeName(CollisionShapeType type) {
  switch (type) {
    case CollisionShapeType::kPlane:
      return "plane";
    case CollisionShapeType::kHeightfield:
      return "heightfield";
    case CollisionShapeType::kSphere:
      return "sphere";
    case CollisionShapeType::kCapsule:
      return "capsule";
    case CollisionShapeType::kEllipsoid:
      return "ellipsoid";
    case CollisionShapeType::kCylinder:
      return "cylinder";
    case CollisionShapeType::kBox:
      return "box";
  }
  return "unknown";
}

}  // namespace swarm
