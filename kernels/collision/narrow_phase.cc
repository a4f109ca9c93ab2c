// The narrow phase's entry points (swarm/kernels/collision/narrow_phase.h): the pair table, the
// precondition checks, and the choice of the translation unit that computes a pair.
#include "swarm/kernels/collision/narrow_phase.h"

#include <cmath>

#include "kernels/collision/narrow_phase_entries.h"
#include "swarm/kernels/base/assert.h"

namespace swarm {

bool ValidShapeGeometry(const ShapeGeometry& shape) {
  size_t used = 0;
  switch (shape.type) {
    case ShapeType::kPlane:
      used = 0;
      break;
    case ShapeType::kHeightfield:
      if (shape.heights == nullptr || shape.rows < 2 || shape.columns < 2 ||
          size_t{shape.rows} * shape.columns > kMaxHeightfieldPoints) {
        return false;
      }
      used = 2;
      break;
    case ShapeType::kSphere:
      used = 1;
      break;
    case ShapeType::kCapsule:
    case ShapeType::kCylinder:
      used = 2;
      break;
    case ShapeType::kEllipsoid:
    case ShapeType::kBox:
      used = 3;
      break;
    default:
      return false;
  }
  for (size_t k = 0; k < used; ++k) {
    if (!std::isfinite(shape.size[k]) || !(shape.size[k] > 0.0f)) return false;
  }
  return true;
}

size_t ContactSlotCount(ShapeType a, ShapeType b) {
  // Rows: a; columns: b (plane, heightfield, sphere, capsule, ellipsoid, cylinder, box); a > b is
  // not a pair.
  static constexpr size_t kSlots[kShapeTypeCount][kShapeTypeCount] = {
      {0, 0, 1, 2, 0, 4, 4},  // plane
      {0, 0, 1, 3, 0, 4, 4},  // heightfield
      {0, 0, 1, 1, 0, 1, 1},  // sphere
      {0, 0, 0, 2, 0, 2, 3},  // capsule
      {0, 0, 0, 0, 0, 0, 0},  // ellipsoid
      {0, 0, 0, 0, 0, 2, 3},  // cylinder
      {0, 0, 0, 0, 0, 0, 4},  // box
  };
  const int row = static_cast<int>(a), column = static_cast<int>(b);
  if (row < 0 || row >= kShapeTypeCount || column < 0 || column >= kShapeTypeCount) return 0;
  return kSlots[row][column];
}

namespace {

bool ValidFrames(const ConstLanesView& frames, size_t count) {
  return frames.arrays == kShapeFrameArrays && frames.count == count;
}

// A cylinder's capsule stand-in (against capsules, cylinders and boxes).
ShapeGeometry AsCapsule(const ShapeGeometry& shape) {
  ShapeGeometry capsule = shape;
  capsule.type = ShapeType::kCapsule;
  return capsule;
}

}  // namespace

void CollideShapes(const ShapeGeometry& a, const ShapeGeometry& b, const ConstLanesView& frames_a,
                   const ConstLanesView& frames_b, float margin, const LanesView& contacts) {
  const size_t slots = ContactSlotCount(a.type, b.type);
  SWARM_ASSERT(slots > 0 && ValidShapeGeometry(a) && ValidShapeGeometry(b));
  SWARM_ASSERT(std::isfinite(margin) && margin >= 0.0f);
  SWARM_ASSERT(ValidFrames(frames_a, contacts.count) && ValidFrames(frames_b, contacts.count) &&
               contacts.arrays == kContactArrays * slots);
  if (contacts.count == 0) return;
  const bool round_a = a.type == ShapeType::kCapsule || a.type == ShapeType::kCylinder;
  if (a.type == ShapeType::kHeightfield) {
    narrow_phase::CollideWithHeightfield(a, b, frames_a, frames_b, contacts);
  } else if (b.type == ShapeType::kBox) {
    if (a.type == ShapeType::kBox) {
      narrow_phase::CollideBoxes(a, b, frames_a, frames_b, margin, contacts);
    } else {
      narrow_phase::CollideWithBox(round_a ? AsCapsule(a) : a, b, frames_a, frames_b, contacts);
    }
  } else if (round_a) {
    narrow_phase::CollidePrimitives(AsCapsule(a), AsCapsule(b), frames_a, frames_b, contacts);
  } else {
    narrow_phase::CollidePrimitives(a, b, frames_a, frames_b, contacts);
  }
}

void ShapeFramesFromPoses(const ConstLanesView& link_poses, size_t first_array,
                          const float position[3], const float rotation[9],
                          const LanesView& frames) {
  SWARM_ASSERT(frames.arrays == kShapeFrameArrays && link_poses.count == frames.count &&
               first_array + 7 <= link_poses.arrays);
  bool finite = true;
  for (size_t k = 0; k < 3; ++k) finite = finite && std::isfinite(position[k]);
  for (size_t k = 0; k < 9; ++k) finite = finite && std::isfinite(rotation[k]);
  SWARM_ASSERT(finite);
  if (frames.count == 0) return;
  narrow_phase::ShapeFrames(link_poses, first_array, position, rotation, frames);
}

}  // namespace swarm
