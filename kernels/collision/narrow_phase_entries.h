// The narrow phase's per-translation-unit entries (kernels/collision/*.cc), each dispatching to the
// best supported target once per call; CollideShapes (narrow_phase.cc) checks the preconditions
// and picks the entry for the pair.
#pragma once

#include "swarm/kernels/base/views.h"
#include "swarm/kernels/collision/narrow_phase.h"

namespace swarm::narrow_phase {

// Planes, spheres, capsules and cylinders with each other (primitive_contacts.cc).
void CollidePrimitives(const ShapeGeometry& a, const ShapeGeometry& b,
                       const ConstLanesView& frames_a, const ConstLanesView& frames_b,
                       const LanesView& contacts);
// A plane, sphere, capsule or cylinder with a box (box_contacts.cc).
void CollideWithBox(const ShapeGeometry& a, const ShapeGeometry& b, const ConstLanesView& frames_a,
                    const ConstLanesView& frames_b, const LanesView& contacts);
// A heightfield with a sphere, capsule, cylinder or box (heightfield_contacts.cc).
void CollideWithHeightfield(const ShapeGeometry& heightfield, const ShapeGeometry& b,
                            const ConstLanesView& frames_a, const ConstLanesView& frames_b,
                            const LanesView& contacts);
// Two boxes (box_box_contact.cc).
void CollideBoxes(const ShapeGeometry& a, const ShapeGeometry& b, const ConstLanesView& frames_a,
                  const ConstLanesView& frames_b, float margin, const LanesView& contacts);
// ShapeFramesFromPoses without its checks (shape_frames.cc).
void ShapeFrames(const ConstLanesView& link_poses, size_t first_array, const float position[3],
                 const float rotation[9], const LanesView& frames);

}  // namespace swarm::narrow_phase
