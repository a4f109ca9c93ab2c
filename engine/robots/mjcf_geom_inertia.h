// A body's mass, centre of mass and inertia from its geoms, as MuJoCo's compiler computes them
// for a body without <inertial> (compiler inertiafromgeom): each geom a solid of uniform density
// (its mass attribute, else density * volume), its principal moments about its centre in its own
// frame, and the geoms summed about their common centre of mass with the parallel-axis theorem.
// Solids (MuJoCo's formulas, exact for each shape; r radius, h = 2 half length, m mass):
//   sphere     2/5 m r^2
//   capsule    a cylinder of r, h and two hemispheres of r at its ends: (mass split by volume)
//              cylinder m_c (3 r^2 + h^2) / 12 across and m_c r^2 / 2 along; the hemispheres
//              m_s (2/5 r^2 + h^2 / 4 + 3 h r / 8) across and 2/5 m_s r^2 along
//   cylinder   m (3 r^2 + h^2) / 12 across, m r^2 / 2 along
//   ellipsoid  m (b^2 + c^2) / 5, ... (radii a b c)
//   box        m (b^2 + c^2) / 3, ... (half sizes a b c)
// Planes and heightfields have no volume; a mesh's volume needs its file, which swarm does not
// read (an error naming the geom).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/robots/mjcf_document.h"
#include "engine/robots/mjcf_geom.h"
#include "swarm/core/status.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

// The inertial of `geoms` (given as their elements and readings), in the body frame; present
// with mass 0 when the geoms have none. Errors name the geom element, file and line: a mesh geom.
Result<LinkInertial> MjcfGeomsInertial(const MjcfDocument& document,
                                       const std::vector<uint32_t>& elements,
                                       const std::vector<const MjcfGeom*>& geoms);

}  // namespace swarm
