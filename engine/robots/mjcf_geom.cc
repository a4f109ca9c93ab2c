#include "engine/robots/mjcf_geom.h"

#include <cmath>
#include <string>
#include <vector>

namespace swarm {
namespace {

struct TypeName {
  const char* name;
  MjcfGeomType type;
};
constexpr TypeName kTypes[] = {{"plane", MjcfGeomType::kPlane},
                               {"hfield", MjcfGeomType::kHfield},
                               {"sphere", MjcfGeomType::kSphere},
                               {"capsule", MjcfGeomType::kCapsule},
                               {"ellipsoid", MjcfGeomType::kEllipsoid},
                               {"cylinder", MjcfGeomType::kCylinder},
                               {"box", MjcfGeomType::kBox},
                               {"mesh", MjcfGeomType::kMesh}};

// The sizes a type reads (the rest are kept but unused).
int SizesUsed(MjcfGeomType type) {
  switch (type) {
    case MjcfGeomType::kSphere:
      return 1;
    case MjcfGeomType::kCapsule:
    case MjcfGeomType::kCylinder:
      return 2;
    case MjcfGeomType::kEllipsoid:
    case MjcfGeomType::kBox:
    case MjcfGeomType::kPlane:
      return 3;
    case MjcfGeomType::kHfield:
    case MjcfGeomType::kMesh:
      return 0;
  }
  return 0;
}

}  // namespace

Result<MjcfGeom> ReadMjcfGeom(const MjcfDocument& document, uint32_t element,
                              const MjcfCompiler& compiler) {
  MjcfGeom geom;
  Result<std::vector<uint32_t>> sources = document.AttributeSources(element);
  if (!sources.ok()) return sources.status();
  const auto given = [&](const char* name) {
    for (uint32_t source : *sources) {
      if (document.elements[source].Find(name) != nullptr) return true;
    }
    return false;
  };
  Result<std::string> name = MjcfText(document, element, "name", "");
  Result<std::string> type = MjcfText(document, element, "type", "sphere");
  Result<std::string> mesh = MjcfText(document, element, "mesh", "");
  Result<std::string> hfield = MjcfText(document, element, "hfield", "");
  if (!name.ok()) return name.status();
  if (!type.ok()) return type.status();
  if (!mesh.ok()) return mesh.status();
  if (!hfield.ok()) return hfield.status();
  geom.name = *name;
  geom.mesh = *mesh;
  geom.hfield = *hfield;
  bool known = false;
  for (const TypeName& t : kTypes) {
    if (*type == t.name) geom.type = t.type, known = true;
  }
  if (!known) {
    return document.Error(
        element, "type \"" + *type +
                     "\": expected plane, hfield, sphere, capsule, ellipsoid, cylinder, box or "
                     "mesh");
  }
  if (geom.type == MjcfGeomType::kMesh && geom.mesh.empty()) {
    return document.Error(element, "of type mesh names no mesh");
  }
  if (geom.type == MjcfGeomType::kHfield && geom.hfield.empty()) {
    return document.Error(element, "of type hfield names no hfield");
  }

  Result<std::vector<double>> size = MjcfNumbers(document, element, "size", {0, 0, 0});
  if (!size.ok()) return size.status();
  geom.size = {(*size)[0], (*size)[1], (*size)[2]};
  Result<MjcfPose> pose = ReadMjcfPose(document, element, compiler);
  if (!pose.ok()) return pose.status();
  geom.pose = *pose;

  const bool from_to = given("fromto");
  if (from_to) {
    const bool elongated = geom.type == MjcfGeomType::kCapsule ||
                           geom.type == MjcfGeomType::kCylinder ||
                           geom.type == MjcfGeomType::kBox || geom.type == MjcfGeomType::kEllipsoid;
    if (!elongated) {
      return document.Error(
          element, "fromto is for capsule, cylinder, box and ellipsoid geoms, not " + *type);
    }
    for (const char* orientation : kMjcfOrientations) {
      if (given(orientation)) {
        return document.Error(
            element, std::string("gives fromto and ") + orientation + ": fromto sets the frame");
      }
    }
    if (geom.pose.position != std::array<double, 3>{0, 0, 0}) {
      return document.Error(element, "gives fromto and a nonzero pos: fromto sets the frame");
    }
    Result<std::vector<double>> ends = MjcfNumbers(document, element, "fromto", {0, 0, 0, 0, 0, 0});
    if (!ends.ok()) return ends.status();
    const std::vector<double>& p = *ends;
    const std::array<double, 3> along{p[0] - p[3], p[1] - p[4], p[2] - p[5]};
    const double length = std::hypot(along[0], along[1], along[2]);
    if (!(length > 0.0)) return document.Error(element, "fromto's two points coincide");
    geom.pose.position = {0.5 * (p[0] + p[3]), 0.5 * (p[1] + p[4]), 0.5 * (p[2] + p[5])};
    geom.pose.quaternion = MjcfQuatOfZAxis(along);
    if (geom.type == MjcfGeomType::kCapsule || geom.type == MjcfGeomType::kCylinder) {
      geom.size[1] = 0.5 * length;
    } else {
      geom.size = {geom.size[0], geom.size[0], 0.5 * length};
    }
  }
  const int used = SizesUsed(geom.type);
  for (int k = 0; k < used; ++k) {
    const bool plane = geom.type == MjcfGeomType::kPlane;
    if (plane ? !(geom.size[k] >= 0.0) : !(geom.size[k] > 0.0)) {
      return document.Error(element, "size[" + std::to_string(k) + "] of a " + *type + " must be " +
                                         (plane ? ">= 0" : "> 0") + ", got " +
                                         std::to_string(geom.size[k]));
    }
  }

  struct Integer {
    const char* name;
    int* value;
    double builtin;
    bool nonnegative;
  };
  const Integer integers[] = {{"contype", &geom.contype, 1, true},
                              {"conaffinity", &geom.conaffinity, 1, true},
                              {"condim", &geom.condim, 3, true},
                              {"priority", &geom.priority, 0, false},
                              {"group", &geom.group, 0, false}};
  for (const Integer& integer : integers) {
    Result<std::vector<double>> value =
        MjcfNumbers(document, element, integer.name, {integer.builtin});
    if (!value.ok()) return value.status();
    const double v = (*value)[0];
    if (v != std::floor(v) || std::fabs(v) > 2147483647.0 || (integer.nonnegative && v < 0)) {
      return document.Error(element, std::string(integer.name) + " must be " +
                                         (integer.nonnegative ? "an integer >= 0" : "an integer"));
    }
    *integer.value = static_cast<int>(v);
  }
  if (geom.condim != 1 && geom.condim != 3 && geom.condim != 4 && geom.condim != 6) {
    return document.Error(element,
                          "condim " + std::to_string(geom.condim) + ": expected 1, 3, 4 or 6");
  }
  Result<std::vector<double>> friction =
      MjcfNumbers(document, element, "friction", {1, 0.005, 0.0001});
  Result<std::vector<double>> solref = MjcfNumbers(document, element, "solref", {0.02, 1});
  Result<std::vector<double>> solimp =
      MjcfNumbers(document, element, "solimp", {0.9, 0.95, 0.001, 0.5, 2});
  Result<std::vector<double>> margin = MjcfNumbers(document, element, "margin", {0});
  Result<std::vector<double>> gap = MjcfNumbers(document, element, "gap", {0});
  Result<std::vector<double>> solmix = MjcfNumbers(document, element, "solmix", {1});
  for (const auto* r : {&friction, &solref, &solimp, &margin, &gap, &solmix}) {
    if (!r->ok()) return r->status();
  }
  for (int k = 0; k < 3; ++k) geom.friction[k] = (*friction)[k];
  geom.solref = {(*solref)[0], (*solref)[1]};
  for (int k = 0; k < 5; ++k) geom.solimp[k] = (*solimp)[k];
  geom.margin = (*margin)[0];
  geom.gap = (*gap)[0];
  geom.solmix = (*solmix)[0];
  if (geom.friction[0] < 0 || geom.friction[1] < 0 || geom.friction[2] < 0) {
    return document.Error(element, "friction must be >= 0");
  }
  if (geom.margin < 0 || geom.gap < 0)
    return document.Error(element, "margin and gap must be >= 0");
  if (!(geom.solmix >= 0)) return document.Error(element, "solmix must be >= 0");
  Result<std::vector<double>> mass = MjcfNumbers(document, element, "mass", {0});
  Result<std::vector<double>> density = MjcfNumbers(document, element, "density", {1000});
  if (!mass.ok()) return mass.status();
  if (!density.ok()) return density.status();
  geom.has_mass = given("mass");
  geom.mass = (*mass)[0];
  geom.density = (*density)[0];
  if (geom.mass < 0 || geom.density < 0) {
    return document.Error(element, "mass and density must be >= 0");
  }
  return geom;
}

}  // namespace swarm
