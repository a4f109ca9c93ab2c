#include "engine/robots/mjcf_schema.h"

#include <string>
#include <string_view>

namespace swarm {
namespace {

// What an element only shows or records: skipped with its whole subtree (material, mesh and
// texture are <asset>s and appear as defaults; a mesh collides only through a geom, which is
// refused there; skin is drawn).
constexpr std::string_view kIgnoredTags[] = {"visual", "statistic", "camera", "light",
                                             "custom", "sensor",    "size",   "material",
                                             "mesh",   "texture",   "skin"};

struct ElementRule {
  std::string_view tag;
  // Space-separated attribute names the element may carry ("" for none).
  std::string_view attributes;
};

constexpr std::string_view kOrientation = "quat axisangle euler xyaxes zaxis";

// Read or ignored attributes per tag; a tag not listed here (nor ignored) is refused.
constexpr ElementRule kRules[] = {
    {"mujoco", "model"},
    {"compiler",
     "angle eulerseq autolimits inertiafromgeom inertiagrouprange meshdir texturedir assetdir "
     "discardvisual strippath convexhull usethread fusestatic"},
    {"option",
     "timestep gravity integrator iterations ls_iterations tolerance ls_tolerance "
     "noslip_iterations noslip_tolerance mpr_iterations mpr_tolerance ccd_iterations "
     "ccd_tolerance sdf_iterations sdf_initpoints solver cone impratio jacobian apirate magnetic "
     "wind density viscosity"},
    {"flag",
     "constraint equality frictionloss limit contact passive gravity clampctrl warmstart "
     "filterparent actuation refsafe sensor midphase eulerdamp override energy fwdinv invdiscrete "
     "multiccd island nativeccd sensornoise"},
    {"default", "class"},
    {"asset", ""},
    {"hfield", "name content_type file nrow ncol size elevation"},
    {"worldbody", ""},
    {"body", "name childclass pos quat axisangle euler xyaxes zaxis mocap user gravcomp"},
    {"inertial", "pos quat axisangle euler xyaxes zaxis mass diaginertia fullinertia"},
    {"joint",
     "name class type group pos axis limited range damping armature frictionloss stiffness ref "
     "springref solreflimit solimplimit solreffriction solimpfriction margin user "
     "actuatorfrcrange actuatorfrclimited actuatorgravcomp"},
    {"freejoint", "name group"},
    {"geom",
     "name class type group size pos quat axisangle euler xyaxes zaxis fromto contype "
     "conaffinity condim priority friction solref solimp solmix margin gap mass density material "
     "rgba mesh hfield user shellinertia fitscale fluidshape fluidcoef"},
    {"site",
     "name class type group size pos quat axisangle euler xyaxes zaxis fromto material rgba user"},
    {"contact", ""},
    {"pair", "name class geom1 geom2 condim friction solref solreffriction solimp margin gap"},
    {"exclude", "name body1 body2"},
    {"equality", ""},
    {"actuator", ""},
    {"motor", "name class group joint gear ctrlrange ctrllimited forcerange forcelimited user"},
    {"position",
     "name class group joint gear ctrlrange ctrllimited forcerange forcelimited user kp kv "
     "inheritrange"},
    {"general",
     "name class group joint gear ctrlrange ctrllimited forcerange forcelimited user gaintype "
     "gainprm biastype biasprm dyntype dynprm actlimited actrange actdim actearly lengthrange"},
    {"keyframe", ""},
    {"key", "name time qpos qvel act ctrl mpos mquat"},
};

// Equality children share tags with other elements: an equality's <joint> has its own list.
constexpr std::string_view kEqualityJoint =
    "name class joint1 joint2 polycoef solref solimp active";

bool Contains(std::string_view list, std::string_view word) {
  while (!list.empty()) {
    const size_t space = list.find(' ');
    const std::string_view item = list.substr(0, space);
    if (item == word) return true;
    if (space == std::string_view::npos) break;
    list.remove_prefix(space + 1);
  }
  return false;
}

bool Ignored(std::string_view tag) {
  for (std::string_view ignored : kIgnoredTags) {
    if (tag == ignored) return true;
  }
  return false;
}

// What `tag` may appear inside (a parent's tag), "" when anywhere its rule allows.
bool PlacedWell(std::string_view tag, std::string_view parent) {
  if (tag == "flag") return parent == "option";
  if (tag == "pair" || tag == "exclude") return parent == "contact" || parent == "default";
  if (tag == "key") return parent == "keyframe";
  if (tag == "hfield") return parent == "asset";
  if (tag == "motor" || tag == "position" || tag == "general") {
    return parent == "actuator" || parent == "default";
  }
  if (tag == "body" || tag == "inertial" || tag == "freejoint") {
    return parent == "worldbody" || parent == "body";
  }
  return true;
}

Status CheckElement(const MjcfDocument& document, uint32_t index) {
  const MjcfElement& element = document.elements[index];
  if (Ignored(element.tag)) return Status();
  const std::string_view parent =
      index == 0 ? std::string_view() : document.elements[element.parent].tag;
  std::string_view allowed;
  bool known = false;
  if (parent == "equality") {
    if (element.tag != "joint") {
      return document.Error(index,
                            "is not supported: of the equalities swarm reads <joint> only (a "
                            "joint that follows another)");
    }
    allowed = kEqualityJoint, known = true;
  } else {
    for (const ElementRule& rule : kRules) {
      if (rule.tag == element.tag) allowed = rule.attributes, known = true;
    }
  }
  if (!known) {
    return document.Error(index,
                          std::string("is not supported") +
                              (parent == "actuator" || parent == "default"
                                   ? ": the actuators swarm reads are motor, position and general"
                                   : ": it would change the physics and swarm does not model it"));
  }
  if (!PlacedWell(element.tag, parent)) {
    return document.Error(index, "cannot appear inside <" + std::string(parent) + ">");
  }
  for (const auto& [name, value] : element.attributes) {
    if (name == "class" && parent == "default" && element.tag != "default") {
      return document.Error(index, "in a default class takes no class attribute");
    }
    if (!Contains(allowed, name)) {
      return document.Error(index, "attribute " + name + " is not supported");
    }
  }
  for (uint32_t child : element.children) {
    if (Status s = CheckElement(document, child); !s.ok()) return s;
  }
  return Status();
}

}  // namespace

Status CheckMjcfSchema(const MjcfDocument& document) {
  if (document.elements.empty()) return Status();
  return CheckElement(document, 0);
}

}  // namespace swarm
