// An MJCF actuator on a joint as MuJoCo 3 compiles it (XML reference, "actuator"; MuJoCo's
// mjs_setToMotor and mjs_setToPosition): the class's one actuator default is built by applying
// each default element of the class chain in document order with its own tag's meaning, then the
// actuator element itself:
//   general   reads gaintype (fixed only), gainprm, biastype (none or affine), biasprm, dyntype
//             (none only)
//   motor     gain 1, no bias
//   position  kp (default: the gain so far) sets gain kp and bias 0 -kp; kv sets bias[2] = -kv;
//             inheritrange > 0 takes ctrlrange from the joint's range: its middle +- inheritrange
//             times half its width
// and every tag reads gear (its first value: a joint's), ctrlrange, ctrllimited, forcerange and
// forcelimited (auto limits as the compiler's autolimits says).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/robots/mjcf_document.h"
#include "engine/robots/mjcf_frame.h"
#include "engine/robots/mjcf_joint.h"
#include "engine/robots/mjcf_model.h"
#include "swarm/core/status.h"

namespace swarm {

// `joint_names` maps each named joint to its index in `joints`. Errors name the element, file and
// line: no joint attribute or a joint no one has, a gear whose values after the first are not 0,
// kp or kv < 0, inheritrange < 0, or > 0 with a ctrlrange or on an unlimited joint, the type
// errors of the header comment, limited ranges with lower > upper, and MjcfNumbers' errors.
Result<MjcfActuator> ReadMjcfActuator(const MjcfDocument& document, uint32_t element,
                                      const MjcfCompiler& compiler,
                                      const std::vector<MjcfJoint>& joints,
                                      const std::unordered_map<std::string, uint32_t>& joint_names);

}  // namespace swarm
