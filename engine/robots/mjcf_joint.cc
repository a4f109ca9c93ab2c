#include "engine/robots/mjcf_joint.h"

#include <cmath>
#include <numbers>
#include <vector>

namespace swarm {
namespace {}  // namespace

Result<MjcfJoint> ReadMjcfJoint(const MjcfDocument& document, uint32_t element,
                                const MjcfCompiler& compiler) {
  MjcfJoint joint;
  const bool free = document.elements[element].tag == "freejoint";
  const auto text = [&](const char* name, const char* builtin) {
    return MjcfText(document, element, name, builtin);
  };
  const auto numbers = [&](const char* name, std::vector<double> builtin) {
    return MjcfNumbers(document, element, name, std::move(builtin));
  };
  Result<std::string> name = text("name", "");
  if (!name.ok()) return name.status();
  joint.name = *name;
  Result<std::string> type = text("type", free ? "free" : "hinge");
  if (!type.ok()) return type.status();
  if (free || *type == "free") {
    joint.type = MjcfJointType::kFree;
  } else if (*type == "hinge") {
    joint.type = MjcfJointType::kHinge;
  } else if (*type == "slide") {
    joint.type = MjcfJointType::kSlide;
  } else if (*type == "ball") {
    joint.type = MjcfJointType::kBall;
  } else {
    return document.Error(element, "type \"" + *type + "\": expected hinge, slide, ball or free");
  }
  const bool angular = joint.type == MjcfJointType::kHinge || joint.type == MjcfJointType::kBall;
  const double unit = angular && compiler.degrees ? std::numbers::pi / 180.0 : 1.0;

  Result<std::vector<double>> position = numbers("pos", {0, 0, 0});
  Result<std::vector<double>> axis = numbers("axis", {0, 0, 1});
  Result<std::vector<double>> range = numbers("range", {0, 0});
  if (!position.ok()) return position.status();
  if (!axis.ok()) return axis.status();
  if (!range.ok()) return range.status();
  joint.position = {(*position)[0], (*position)[1], (*position)[2]};
  const double norm = std::hypot((*axis)[0], (*axis)[1], (*axis)[2]);
  if (!(norm > 0.0)) return document.Error(element, "axis is zero");
  joint.axis = {(*axis)[0] / norm, (*axis)[1] / norm, (*axis)[2] / norm};

  struct Passive {
    const char* name;
    double* value;
    bool angle;
    bool nonnegative;
  };
  const Passive passive[] = {{"damping", &joint.damping, false, true},
                             {"armature", &joint.armature, false, true},
                             {"frictionloss", &joint.frictionloss, false, true},
                             {"stiffness", &joint.stiffness, false, true},
                             {"ref", &joint.ref, true, false},
                             {"springref", &joint.springref, true, false}};
  for (const Passive& p : passive) {
    Result<std::vector<double>> value = numbers(p.name, {0});
    if (!value.ok()) return value.status();
    if (p.nonnegative && (*value)[0] < 0.0) {
      return document.Error(element, std::string(p.name) + " must be >= 0");
    }
    *p.value = (*value)[0] * (p.angle && joint.type == MjcfJointType::kHinge ? unit : 1.0);
  }

  Result<std::string> limited = text("limited", "auto");
  if (!limited.ok()) return limited.status();
  const bool has_range = (*range)[0] != 0.0 || (*range)[1] != 0.0;
  if (*limited == "true") {
    joint.limited = true;
  } else if (*limited == "false") {
    joint.limited = false;
  } else if (*limited == "auto") {
    if (has_range && !compiler.autolimits) {
      return document.Error(element,
                            "has a range but neither limited nor compiler autolimits=\"true\"");
    }
    joint.limited = has_range;
  } else {
    return document.Error(element, "limited \"" + *limited + "\": expected true, false or auto");
  }
  if (joint.type == MjcfJointType::kFree) joint.limited = false;
  joint.range = {(*range)[0] * unit, (*range)[1] * unit};
  if (joint.limited) {
    if (joint.type == MjcfJointType::kBall && (*range)[0] != 0.0) {
      return document.Error(element,
                            "a ball joint's range must start at 0 (its limit is "
                            "the largest angle, range[1])");
    }
    if (!(joint.range[0] < joint.range[1])) {
      return document.Error(element, "a limited joint's range needs lower < upper");
    }
  }
  return joint;
}

}  // namespace swarm
