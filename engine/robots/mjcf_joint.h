// An MJCF <joint> or <freejoint> as MuJoCo compiles it (XML reference, "joint"; "compiler"
// autolimits): its type, frame, axis, limits and passive dynamics, in SI units.
// - type: hinge (the default), slide, ball or free; <freejoint> is a free joint.
// - Hinge and ball ranges and a hinge's ref are angles in the compiler's unit.
// - limited: true, false or auto (the default): auto limits a joint whose range is not 0 0 when
//   autolimits is true, and is an error for such a range when it is false (as MuJoCo 2.2.2).
//   Free joints are never limited; a ball joint's limit is range[1] (range[0] must be 0).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "engine/robots/mjcf_document.h"
#include "engine/robots/mjcf_frame.h"
#include "swarm/core/status.h"

namespace swarm {

enum class MjcfJointType { kHinge, kSlide, kBall, kFree };

struct MjcfJoint {
  std::string name;
  MjcfJointType type = MjcfJointType::kHinge;
  std::array<double, 3> position{0, 0, 0};  // in the body frame
  std::array<double, 3> axis{0, 0, 1};      // unit, in the body frame
  bool limited = false;
  std::array<double, 2> range{0, 0};  // rad or m
  double damping = 0, armature = 0, frictionloss = 0, stiffness = 0;
  double ref = 0, springref = 0;  // rad or m
  // The limit's soft constraint (MuJoCo's solreflimit and solimplimit; defaults as MuJoCo's).
  std::array<double, 2> solref_limit{0.02, 1};
  std::array<double, 5> solimp_limit{0.9, 0.95, 0.001, 0.5, 2};
  // actuatorfrcrange: the total actuator force on the joint is clamped to it (MuJoCo 3), limited
  // as `limited` is (actuatorfrclimited true, false or auto).
  bool actuator_force_limited = false;
  std::array<double, 2> actuator_force_range{0, 0};
};

// Errors name the attribute or rule, element, file and line: an unknown type or limited value, a
// zero axis, a range with lower >= upper when limited, a ball range whose lower end is not 0, a
// nonzero range with limited auto and autolimits false, a negative damping, armature,
// frictionloss or stiffness, an actuatorfrcrange with lower > upper, actuatorgravcomp true
// (gravity compensation through the actuators is not modelled), and the number errors of
// MjcfNumbers.
Result<MjcfJoint> ReadMjcfJoint(const MjcfDocument& document, uint32_t element,
                                const MjcfCompiler& compiler);

}  // namespace swarm
