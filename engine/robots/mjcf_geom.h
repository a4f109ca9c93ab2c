// An MJCF <geom> as MuJoCo compiles it (XML reference, "geom"): its shape, frame in the body and
// contact parameters, through its class defaults.
// - size, per type: plane (half x, half y, grid spacing), sphere (radius), capsule and cylinder
//   (radius, half length), ellipsoid (three radii), box (three half sizes); a mesh or hfield
//   ignores it. Extra values are kept, as MuJoCo keeps them.
// - fromto "x1 y1 z1 x2 y2 z2" (capsule, cylinder, box, ellipsoid): the frame is centred between
//   the two points with +z along p1 - p2, the half length |p1 - p2| / 2 goes to size[1] (capsule,
//   cylinder) or size[2] with size[1] = size[0] (box, ellipsoid). It takes no pos other than 0
//   and no orientation.
// - Contact parameters with MuJoCo's defaults: contype 1, conaffinity 1, condim 3 (1, 3, 4 or 6),
//   priority 0, friction 1 0.005 0.0001, solref 0.02 1, solimp 0.9 0.95 0.001 0.5 2, margin 0,
//   gap 0; solmix 1; group 0.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "engine/robots/mjcf_document.h"
#include "engine/robots/mjcf_frame.h"
#include "swarm/core/status.h"

namespace swarm {

enum class MjcfGeomType { kPlane, kHfield, kSphere, kCapsule, kEllipsoid, kCylinder, kBox, kMesh };

struct MjcfGeom {
  std::string name;
  MjcfGeomType type = MjcfGeomType::kSphere;
  std::array<double, 3> size{0, 0, 0};
  MjcfPose pose;  // in the body frame
  int contype = 1, conaffinity = 1, condim = 3, priority = 0, group = 0;
  std::array<double, 3> friction{1, 0.005, 0.0001};  // sliding, torsional, rolling
  std::array<double, 2> solref{0.02, 1};
  std::array<double, 5> solimp{0.9, 0.95, 0.001, 0.5, 2};
  double margin = 0, gap = 0;
  double solmix = 1;   // the weight of this geom's solref and solimp in a pair's mix
  std::string mesh;    // the mesh a mesh geom names
  std::string hfield;  // the heightfield an hfield geom names
  // For a body's inertia from its geoms: the geom's mass when given, else density * volume.
  bool has_mass = false;
  double mass = 0;
  double density = 1000;  // kg/m^3
};

// Errors name the rule, element, file and line: an unknown type; a size a shape needs that is not
// > 0 (a plane's >= 0); fromto on another type, of zero length, with a nonzero pos or with an
// orientation; contype, conaffinity, priority or group not an integer (contype and conaffinity
// >= 0); a condim other than 1, 3, 4 or 6; a negative friction, margin, gap, mass or density; a
// mesh geom without a mesh, an hfield geom without an hfield; and the errors of ReadMjcfPose and
// MjcfNumbers.
Result<MjcfGeom> ReadMjcfGeom(const MjcfDocument& document, uint32_t element,
                              const MjcfCompiler& compiler);

}  // namespace swarm
