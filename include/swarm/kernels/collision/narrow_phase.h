// Narrow phase: the contacts between two collision shapes, for R lanes at once (one robot, one
// environment or one world per lane; structure of arrays over the lane index,
// swarm/kernels/base/views.h). Every lane of a call evaluates the same pair of shape types and
// sizes with its own poses, so a model's pair list is a fixed sequence of calls: the same work in
// every lane, no branches on the data, and the same bits on every SIMD target.
//
// Shapes follow MuJoCo's conventions (XML reference, "geom"): a shape's frame is its centre and
// axes; a plane is the infinite plane z = 0 of its frame, solid below (size unused); a sphere has
// radius size[0]; a capsule and a cylinder radius size[0] and half length size[1] along their z
// axis; a box half sizes size[0..2]; a heightfield (MuJoCo's hfield) is the surface over the
// rectangle |x| <= size[0], |y| <= size[1] of its frame through a grid of heights (ShapeGeometry:
// row r at y = -size[1] + r dy, column c at x = -size[0] + c dx, dx = 2 size[0] / (columns - 1),
// dy = 2 size[1] / (rows - 1)), each cell split into two triangles along its diagonal from
// (r, c) to (r + 1, c + 1) as MuJoCo splits it, solid below the surface.
//
// A contact is a candidate point with a signed distance (negative: penetrating), its position
// halfway between the two surfaces, and the unit normal from the first shape towards the second:
// moving the second shape by -distance along the normal makes the surfaces touch. A pair writes a
// fixed number of slots (ContactSlotCount), each a candidate; a slot a lane does not use has
// distance kNoContact. Which candidates act is the caller's rule (MuJoCo's: distance < margin).
//
// Per pair (a before b in ShapeType order, as MuJoCo orders a pair's geoms):
//   plane-sphere     1 slot   exact.
//   plane-capsule    2        the two end spheres: a capsule lying flat rests on a line.
//   plane-cylinder   4        the lowest rim point of each cap, and on the lower cap the rim points
//                             at +-120 degrees from its lowest: a cylinder on a cap stands on three
//                             points, on its side on two (MuJoCo's mjc_PlaneCylinder also reports
//                             up to four).
//   plane-box        4        the corners of the face turned most towards the plane (the lowest
//                             corner is always one of them).
//   sphere-sphere,   1        exact (sphere-cylinder and sphere-box also with the centre inside).
//   sphere-capsule, sphere-cylinder, sphere-box
//   capsule-capsule  2        the closest points of the two segments; for segments parallel to
//                             within 0.6 degrees, the two ends of their overlap, so a capsule lying
//                             along another rests on a line.
//   capsule-box      3        the two end spheres against the box, and the segment's closest point
//                             to the box's edges where it is strictly closer than both ends (a
//                             capsule across an edge); a segment that passes through the box is
//                             pushed out through the face nearest to the middle of its part inside.
//   box-box          4        separating axes (Gottschalk, Lin and Manocha, "OBBTree", SIGGRAPH
//                             1996): the axis of least penetration among the 15 gives the normal;
//                             a face axis (preferred unless an edge axis separates more by
//                             kEdgeAxisBias) gives the incident face clipped against the reference
//                             face (its corners inside, the reference corners inside it and the
//                             edge crossings), reduced to four points as Box2D does: the deepest,
//                             the farthest from it, and the two that span the largest area on
//                             either side; an edge axis gives the closest points of the two edges.
//                             Only points within `margin` are kept.
//   heightfield-sphere   1   the centre's closest point on the surface among the 8 triangles of
//                            the 2 x 2 cells around the grid point nearest to it: exact when the
//                            centre lies within half a cell (the smaller of dx, dy / 2) of the
//                            surface, farther is no concern of a contact; negative below the
//                            surface (the height under the centre on its triangle says which
//                            side).
//   heightfield-capsule  3   the same for the two end spheres and the middle one: a capsule lying
//                            across a ridge narrower than half its length may sink between them.
//   heightfield-cylinder 4   the rim points plane-cylinder chooses for the plane z = 0 of the
//   heightfield-box      4   heightfield's frame, and the corners plane-box chooses, each as a
//                            point against the surface: terrain narrower than a face may pass
//                            into it between its corners (MuJoCo collides each triangle's prism
//                            with the shape; game engines' heightfields mostly test points too).
//   A point whose x or y lies beyond the heightfield's rectangle has no contact: nothing collides
//   with its sides (MuJoCo's base below z = 0 is not modelled). Nor has a point at least half a
//   cell above the heightfield's top (ShapeGeometry::top): every point of the surface is then
//   beyond the exact range (a vector of lanes all that high skips the surface).
//   cylinder with capsule, box or cylinder: the cylinder collides as the capsule of the same radius
//   and half length (its ends rounded, reaching radius beyond the flat caps): the stand-in
//   MuJoCo's early releases and many game engines use. No model in swarm's tests collides with one.
// Planes and heightfields do not collide with planes or heightfields, and ellipsoids with nothing
// (ContactSlotCount 0).
//
// Determinism as everywhere in kernels/: a lane's outputs are a fixed sequence of correctly
// rounded operations on every target (no FMA, exact Div and Sqrt, compare-and-select instead of
// Min/Max). Ties (a sphere's centre on a box's diagonal, coincident centres) are broken by a fixed
// order: the lower axis first; coincident centres give the normal +z of the world.
// swarm/kernels/collision/narrow_phase_reference.h computes the same contacts in double precision
// from the geometry, for tests and for callers who want to check a result.
//
// Preconditions (checked once per call with SWARM_ASSERT): frames hold kShapeFrameArrays arrays,
// contacts kContactArrays x ContactSlotCount arrays, all with the same count; sizes are finite and
// positive where used; frames are finite with orthonormal rotations; the outputs do not overlap
// the inputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "swarm/kernels/base/views.h"

namespace swarm {

// MuJoCo's geom types that have a narrow phase here, in MuJoCo's order (mjtGeom's values).
enum class ShapeType { kPlane, kHeightfield, kSphere, kCapsule, kEllipsoid, kCylinder, kBox };
inline constexpr int kShapeTypeCount = 7;

struct ShapeGeometry {
  ShapeType type = ShapeType::kSphere;
  float size[3] = {0, 0, 0};
  // A heightfield's grid: rows x columns heights in metres (z in its frame), row-major, row r at
  // y = -size[1] + r dy (above), and a bound on them (>= every height; infinity when unknown).
  // Not owned; unused by the other types.
  const float* heights = nullptr;
  uint32_t rows = 0, columns = 0;
  float top = std::numeric_limits<float>::infinity();
};
// The most grid points of a heightfield: its indices stay exact in 32-bit integers.
inline constexpr size_t kMaxHeightfieldPoints = size_t{1} << 28;
// The sizes a type uses are finite and > 0; a heightfield has heights and 2 to
// kMaxHeightfieldPoints points in rows and columns of at least 2 (its heights are not read here).
bool ValidShapeGeometry(const ShapeGeometry& shape);

// A shape of `type` with these sizes (the unused ones 0).
inline ShapeGeometry ShapeOf(ShapeType type, float size0, float size1 = 0, float size2 = 0) {
  ShapeGeometry shape;
  shape.type = type;
  shape.size[0] = size0;
  shape.size[1] = size1;
  shape.size[2] = size2;
  return shape;
}

// A shape's frame in the world, per lane: position x y z, then the rotation matrix row by row
// (world = rotation shape + position), whose columns are the shape's axes in the world.
inline constexpr size_t kShapeFrameArrays = 12;
// A contact slot, per lane: distance, position x y z, normal x y z.
inline constexpr size_t kContactArrays = 7;
// The distance of a slot that holds no contact.
inline constexpr float kNoContact = std::numeric_limits<float>::max();
// How much more an edge-edge axis must separate two boxes than their best face axis to be the
// contact normal (m): face contacts give whole manifolds, so a nearly tied edge axis loses.
inline constexpr float kEdgeAxisBias = 0.0005f;
// The most slots any pair writes.
inline constexpr size_t kMaxContactSlots = 4;

// The slots a pair of types writes (a.type <= b.type), 0 when the pair has no narrow phase.
size_t ContactSlotCount(ShapeType a, ShapeType b);

// The contacts of shape a (frames_a) with shape b (frames_b) in every lane, into `contacts`
// (slot s's arrays from kContactArrays s). a.type <= b.type and ContactSlotCount(a, b) > 0;
// `margin` (>= 0, m) is the distance below which box-box keeps a clipped point.
void CollideShapes(const ShapeGeometry& a, const ShapeGeometry& b, const ConstLanesView& frames_a,
                   const ConstLanesView& frames_b, float margin, const LanesView& contacts);

// Shape frames from link poses: the frame of a shape fixed at `position`, `rotation` (row-major)
// in a link whose poses (swarm/kernels/robots/robot_kinematics.h, kPoseArrays: px py pz qx qy qz
// qw) are `link_poses` (7 arrays from `first_array`): world position = link position + R_link
// position, world rotation = R_link rotation, with R_link the quaternion's matrix.
void ShapeFramesFromPoses(const ConstLanesView& link_poses, size_t first_array,
                          const float position[3], const float rotation[9],
                          const LanesView& frames);

}  // namespace swarm
