// A body's MJCF <inertial> as MuJoCo compiles it (XML reference, "inertial"): mass, centre of
// mass and the inertia tensor about it, in the body frame, as swarm's LinkInertial holds a URDF
// link's. The inertial takes no class defaults.
// - pos is the centre of mass; mass >= 0.
// - diaginertia (principal moments, >= 0, each at most the sum of the other two) in the frame of
//   the inertial's orientation (quat, axisangle, euler, xyaxes or zaxis): R diag R^T.
// - or fullinertia "ixx iyy izz ixy ixz iyz" in the body frame, positive definite; it takes no
//   orientation (MuJoCo 2.2.2: "multiple orientation specifiers") and wins over diaginertia.
#pragma once

#include <cstdint>

#include "engine/robots/mjcf_document.h"
#include "engine/robots/mjcf_frame.h"
#include "swarm/core/status.h"
#include "swarm/robots/robot_model.h"

namespace swarm {

// Errors name the rule, element, file and line: no diaginertia or fullinertia, fullinertia with
// an orientation, a negative mass or moment, moments that break the triangle inequality, a
// fullinertia that is not positive definite, and the errors of ReadMjcfPose and MjcfNumbers.
Result<LinkInertial> ReadMjcfInertial(const MjcfDocument& document, uint32_t element,
                                      const MjcfCompiler& compiler);

}  // namespace swarm
