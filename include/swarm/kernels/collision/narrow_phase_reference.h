// A double-precision reference for the narrow phase (swarm/kernels/collision/narrow_phase.h),
// written from the geometry by other means than the kernels: shapes as exact signed distance
// functions and support functions, and the signed distance between two convex shapes as the
// best separation over all directions,
//   distance(A, B) = max over unit L of ( min_{b in B} L . b - max_{a in A} L . a )
//                  = max over unit L of ( -h_A(L) - h_B(-L) ),   h the support function,
// which is the gap when they are apart and minus the penetration depth (the shortest translation
// that separates them) when they overlap (the support-function form of the separating axis
// theorem: both sides are the signed distance of the origin to the Minkowski difference A - B).
// The maximising L is the contact normal from A to B. Tests compare a kernel's deepest slot with
// it and check that every slot's two surface points lie on the two shapes.
//
// Frames are 12 doubles in the kernels' order (position, rotation row-major).
#pragma once

#include "swarm/kernels/collision/narrow_phase.h"

namespace swarm {

// The signed distance from point p to the shape's surface (negative inside); a plane's solid
// side is below it, and a heightfield's below its surface: the nearest of all its triangles (each
// the plane's distance where p projects inside it, else the nearest edge's), infinity where p's
// x or y lies beyond its rectangle.
double ReferenceShapeDistance(const ShapeGeometry& shape, const double frame[12],
                              const double p[3]);

// max over the shape's points x of L . x (a plane: only L along its normal is finite; not
// defined here for planes).
double ReferenceSupport(const ShapeGeometry& shape, const double frame[12], const double l[3]);

// -h_A(L) - h_B(-L) for unit L: how far B lies beyond A along L; a plane a (infinite) uses its
// normal n: the distance of B's lowest point along n above the plane.
double ReferenceSeparation(const ShapeGeometry& a, const double frame_a[12], const ShapeGeometry& b,
                           const double frame_b[12], const double l[3]);

// The signed distance between a and b (above) and the normal that attains it: for a plane, its
// normal; otherwise the best of 4,000 evenly spread directions, the 16 best refined by
// Nelder-Mead on the sphere (restarted with smaller simplices; the separation has one local
// maximum per face of A - B, so a dense start finds the global one, and ridges where the support
// point jumps, which a simplex follows).
double ReferenceSignedDistance(const ShapeGeometry& a, const double frame_a[12],
                               const ShapeGeometry& b, const double frame_b[12], double normal[3]);

}  // namespace swarm
