#include "engine/robots/mjcf_geom_inertia.h"

#include <array>
#include <numbers>

#include "engine/robots/frame_math.h"

namespace swarm {
namespace {

namespace fm = frame_math;
constexpr double kPi = std::numbers::pi;

double Volume(const MjcfGeom& geom) {
  const std::array<double, 3>& s = geom.size;
  switch (geom.type) {
    case MjcfGeomType::kSphere:
      return 4.0 * kPi * s[0] * s[0] * s[0] / 3.0;
    case MjcfGeomType::kCapsule:
      return kPi * (s[0] * s[0] * 2.0 * s[1] + 4.0 * s[0] * s[0] * s[0] / 3.0);
    case MjcfGeomType::kCylinder:
      return kPi * s[0] * s[0] * 2.0 * s[1];
    case MjcfGeomType::kEllipsoid:
      return 4.0 * kPi * s[0] * s[1] * s[2] / 3.0;
    case MjcfGeomType::kBox:
      return 8.0 * s[0] * s[1] * s[2];
    default:
      return 0.0;
  }
}

// Principal moments about the geom's centre, in its frame.
std::array<double, 3> Moments(const MjcfGeom& geom, double mass) {
  const std::array<double, 3>& s = geom.size;
  switch (geom.type) {
    case MjcfGeomType::kSphere: {
      const double i = 0.4 * mass * s[0] * s[0];
      return {i, i, i};
    }
    case MjcfGeomType::kCapsule: {
      const double r = s[0], h = 2.0 * s[1];
      const double sphere_mass = mass * 4.0 * r / (4.0 * r + 3.0 * h);  // by volume
      const double cylinder_mass = mass - sphere_mass;
      const double across = cylinder_mass * (3.0 * r * r + h * h) / 12.0 +
                            0.4 * sphere_mass * r * r + sphere_mass * h * (3.0 * r + 2.0 * h) / 8.0;
      const double along = cylinder_mass * r * r / 2.0 + 0.4 * sphere_mass * r * r;
      return {across, across, along};
    }
    case MjcfGeomType::kCylinder: {
      const double r = s[0], h = 2.0 * s[1];
      const double across = mass * (3.0 * r * r + h * h) / 12.0;
      return {across, across, mass * r * r / 2.0};
    }
    case MjcfGeomType::kEllipsoid:
      return {mass * (s[1] * s[1] + s[2] * s[2]) / 5.0, mass * (s[0] * s[0] + s[2] * s[2]) / 5.0,
              mass * (s[0] * s[0] + s[1] * s[1]) / 5.0};
    case MjcfGeomType::kBox:
      return {mass * (s[1] * s[1] + s[2] * s[2]) / 3.0, mass * (s[0] * s[0] + s[2] * s[2]) / 3.0,
              mass * (s[0] * s[0] + s[1] * s[1]) / 3.0};
    default:
      return {0, 0, 0};
  }
}

}  // namespace

Result<LinkInertial> MjcfGeomsInertial(const MjcfDocument& document,
                                       const std::vector<uint32_t>& elements,
                                       const std::vector<const MjcfGeom*>& geoms) {
  LinkInertial out;
  out.present = true;
  std::vector<double> masses(geoms.size());
  for (size_t g = 0; g < geoms.size(); ++g) {
    if (geoms[g]->type == MjcfGeomType::kMesh) {
      return document.Error(elements[g],
                            "is a mesh whose volume would give its body's inertia: swarm does not "
                            "read mesh files; give the body an <inertial>");
    }
    masses[g] = geoms[g]->has_mass ? geoms[g]->mass : geoms[g]->density * Volume(*geoms[g]);
    out.mass += masses[g];
  }
  if (!(out.mass > 0.0)) return out;
  for (size_t g = 0; g < geoms.size(); ++g) {
    for (int k = 0; k < 3; ++k) out.com[k] += masses[g] * geoms[g]->pose.position[k] / out.mass;
  }
  for (size_t g = 0; g < geoms.size(); ++g) {
    const std::array<double, 3> moments = Moments(*geoms[g], masses[g]);
    const std::array<double, 4>& q = geoms[g]->pose.quaternion;  // w x y z
    const fm::Mat3 own = fm::RotateTensor(fm::RotationOf({q[1], q[2], q[3], q[0]}),
                                          {moments[0], 0, 0, 0, moments[1], 0, 0, 0, moments[2]});
    // Parallel axes: m (|d|^2 I - d d^T) with d the geom's offset from the common centre.
    std::array<double, 3> d{};
    for (int k = 0; k < 3; ++k) d[k] = geoms[g]->pose.position[k] - out.com[k];
    const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        out.inertia[3 * r + c] += own[3 * r + c] + masses[g] * ((r == c ? d2 : 0.0) - d[r] * d[c]);
      }
    }
  }
  return out;
}

}  // namespace swarm
