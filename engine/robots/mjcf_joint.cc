#include "engine/robots/mjcf_joint.h"

#include <cmath>
#include <numbers>
#include <vector>

namespace swarm {

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

  Result<bool> limited = ReadMjcfLimited(document, element, "limited", "range", *range, compiler);
  if (!limited.ok()) return limited.status();
  joint.limited = *limited;
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
  Result<std::vector<double>> solref = numbers("solreflimit", {0.02, 1});
  Result<std::vector<double>> solimp = numbers("solimplimit", {0.9, 0.95, 0.001, 0.5, 2});
  Result<std::vector<double>> force_range = numbers("actuatorfrcrange", {0, 0});
  if (!solref.ok()) return solref.status();
  if (!solimp.ok()) return solimp.status();
  if (!force_range.ok()) return force_range.status();
  joint.solref_limit = {(*solref)[0], (*solref)[1]};
  for (int k = 0; k < 5; ++k) joint.solimp_limit[k] = (*solimp)[k];
  Result<bool> force_limited = ReadMjcfLimited(document, element, "actuatorfrclimited",
                                               "actuatorfrcrange", *force_range, compiler);
  if (!force_limited.ok()) return force_limited.status();
  joint.actuator_force_limited = *force_limited;
  joint.actuator_force_range = {(*force_range)[0], (*force_range)[1]};
  if (joint.actuator_force_limited &&
      !(joint.actuator_force_range[0] <= joint.actuator_force_range[1])) {
    return document.Error(element, "actuatorfrcrange needs lower <= upper");
  }
  Result<std::string> gravity_compensation = text("actuatorgravcomp", "false");
  if (!gravity_compensation.ok()) return gravity_compensation.status();
  if (*gravity_compensation != "false") {
    return document.Error(element,
                          "actuatorgravcomp is not supported: gravity compensation through the "
                          "actuators is not modelled");
  }
  return joint;
}

}  // namespace swarm
