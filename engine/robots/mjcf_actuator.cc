#include "engine/robots/mjcf_actuator.h"

#include <string>
#include <utility>

namespace swarm {
namespace {

// The running actuator that each source element (class defaults, then the actuator) updates.
struct Draft {
  std::vector<double> gain{1, 0, 0}, bias{0, 0, 0};
  std::vector<double> gear{1, 0, 0, 0, 0, 0};
  std::vector<double> ctrl_range{0, 0}, force_range{0, 0};
  double inherit_range = 0;
};

// One source's tag-specific attributes (the common ones are read through the class chain).
Status Apply(const MjcfDocument& document, uint32_t source, Draft& draft) {
  const MjcfElement& element = document.elements[source];
  const auto keyword = [&](const char* name, const char* only) -> Status {
    const std::string* value = element.Find(name);
    if (value != nullptr && *value != only) {
      return document.Error(source, std::string(name) + " \"" + *value + "\" is not supported: " +
                                        "swarm reads " + name + " \"" + only + "\"");
    }
    return Status();
  };
  if (element.tag == "general") {
    if (Status s = keyword("gaintype", "fixed"); !s.ok()) return s;
    if (Status s = keyword("dyntype", "none"); !s.ok()) return s;
    if (const std::string* bias_type = element.Find("biastype")) {
      if (*bias_type != "none" && *bias_type != "affine") {
        return document.Error(source, "biastype \"" + *bias_type +
                                          "\" is not supported: swarm reads none and affine");
      }
    }
    std::vector<double> gain(10, 0.0), bias(10, 0.0);
    for (int k = 0; k < 3; ++k) gain[k] = draft.gain[k], bias[k] = draft.bias[k];
    if (Status s = OverwriteMjcfNumbers(document, source, "gainprm", gain); !s.ok()) return s;
    if (Status s = OverwriteMjcfNumbers(document, source, "biasprm", bias); !s.ok()) return s;
    for (int k = 3; k < 10; ++k) {
      if (gain[k] != 0.0 || bias[k] != 0.0) {
        return document.Error(source,
                              "gainprm and biasprm beyond their first three values are not "
                              "supported (fixed gain and affine bias read three)");
      }
    }
    for (int k = 0; k < 3; ++k) draft.gain[k] = gain[k], draft.bias[k] = bias[k];
    // No bias: biasprm is kept but unused, as MuJoCo keeps it.
    if (const std::string* bias_type = element.Find("biastype");
        bias_type && *bias_type == "none") {
      draft.bias = {0, 0, 0};
    }
  } else if (element.tag == "motor") {
    draft.gain[0] = 1.0;
    draft.bias = {0, 0, 0};
  } else if (element.tag == "position") {
    std::vector<double> kp{draft.gain[0]}, kv{-1.0}, inherit{draft.inherit_range};
    if (Status s = OverwriteMjcfNumbers(document, source, "kp", kp); !s.ok()) return s;
    if (Status s = OverwriteMjcfNumbers(document, source, "kv", kv); !s.ok()) return s;
    if (Status s = OverwriteMjcfNumbers(document, source, "inheritrange", inherit); !s.ok()) {
      return s;
    }
    if (kp[0] < 0.0) return document.Error(source, "kp must be >= 0");
    if (element.Find("kv") != nullptr && kv[0] < 0.0) {
      return document.Error(source, "kv must be >= 0");
    }
    if (inherit[0] < 0.0) return document.Error(source, "inheritrange must be >= 0");
    draft.gain = {kp[0], 0, 0};
    draft.bias[0] = 0.0;
    draft.bias[1] = -kp[0];
    if (element.Find("kv") != nullptr) draft.bias[2] = -kv[0];
    draft.inherit_range = inherit[0];
  }
  const std::pair<const char*, std::vector<double>*> common[] = {
      {"gear", &draft.gear}, {"ctrlrange", &draft.ctrl_range}, {"forcerange", &draft.force_range}};
  for (const auto& [name, values] : common) {
    if (Status s = OverwriteMjcfNumbers(document, source, name, *values); !s.ok()) return s;
  }
  return Status();
}

}  // namespace

Result<MjcfActuator> ReadMjcfActuator(
    const MjcfDocument& document, uint32_t element, const MjcfCompiler& compiler,
    const std::vector<MjcfJoint>& joints,
    const std::unordered_map<std::string, uint32_t>& joint_names) {
  Result<std::vector<uint32_t>> sources = document.AttributeSources(element);
  if (!sources.ok()) return sources.status();
  Draft draft;
  for (uint32_t source : *sources) {
    if (Status s = Apply(document, source, draft); !s.ok()) return s;
  }
  MjcfActuator actuator;
  actuator.element = element;
  actuator.tag = document.elements[element].tag;
  Result<std::string> name = MjcfText(document, element, "name", "");
  if (!name.ok()) return name.status();
  actuator.name = *name;
  const std::string* joint = document.elements[element].Find("joint");
  if (joint == nullptr) {
    return document.Error(element,
                          "has no joint: swarm's actuators drive joints (no tendon, site or body "
                          "transmissions)");
  }
  const auto found = joint_names.find(*joint);
  if (found == joint_names.end()) {
    return document.Error(element, "names joint '" + *joint + "', which the model does not have");
  }
  actuator.joint = found->second;
  for (int k = 1; k < 6; ++k) {
    if (draft.gear[k] != 0.0) {
      return document.Error(element, "gear has values after its first: a joint uses one");
    }
  }
  actuator.gear = draft.gear[0];
  actuator.gain = {draft.gain[0], draft.gain[1], draft.gain[2]};
  actuator.bias = {draft.bias[0], draft.bias[1], draft.bias[2]};

  Result<bool> ctrl_limited =
      ReadMjcfLimited(document, element, "ctrllimited", "ctrlrange", draft.ctrl_range, compiler);
  if (!ctrl_limited.ok()) return ctrl_limited.status();
  Result<bool> force_limited =
      ReadMjcfLimited(document, element, "forcelimited", "forcerange", draft.force_range, compiler);
  if (!force_limited.ok()) return force_limited.status();
  actuator.ctrl_limited = *ctrl_limited;
  actuator.ctrl_range = {draft.ctrl_range[0], draft.ctrl_range[1]};
  actuator.force_limited = *force_limited;
  actuator.force_range = {draft.force_range[0], draft.force_range[1]};
  if (draft.inherit_range > 0.0) {
    if (draft.ctrl_range[0] != 0.0 || draft.ctrl_range[1] != 0.0) {
      return document.Error(element, "gives both ctrlrange and inheritrange");
    }
    const MjcfJoint& target = joints[actuator.joint];
    if (!target.limited) {
      return document.Error(element, "inheritrange needs a limited joint, and joint '" +
                                         target.name + "' has no range");
    }
    const double middle = 0.5 * (target.range[0] + target.range[1]);
    const double half = 0.5 * draft.inherit_range * (target.range[1] - target.range[0]);
    actuator.ctrl_limited = true;
    actuator.ctrl_range = {middle - half, middle + half};
  }
  if (actuator.ctrl_limited && !(actuator.ctrl_range[0] <= actuator.ctrl_range[1])) {
    return document.Error(element, "ctrlrange needs lower <= upper");
  }
  if (actuator.force_limited && !(actuator.force_range[0] <= actuator.force_range[1])) {
    return document.Error(element, "forcerange needs lower <= upper");
  }
  return actuator;
}

}  // namespace swarm
