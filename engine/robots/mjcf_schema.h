// Which MJCF elements and attributes swarm reads, ignores or refuses (XML reference, "MJCF
// Schema"). The rule: what changes the physics is read or refused, never dropped in silence.
// - Read: the model's tree (body, inertial, joint, freejoint, geom, site), compiler, option and
//   its flags, default classes, contact pairs and excludes, joint equalities, the motor, position
//   and general actuators on joints, keyframes.
// - Ignored whole (with everything inside): what only shows or records the model: visual,
//   statistic, asset (meshes, materials, textures, and their defaults), camera, light, custom,
//   sensor, size (memory sizes MuJoCo preallocates).
// - Refused, naming the element or attribute, file and line: everything else, such as tendons,
//   other equalities (connect, weld), other actuators (velocity, cylinder, muscle, ...),
//   transmissions other than a joint, plugins, composites and flexes, and any attribute not
//   listed for its element (MuJoCo refuses unknown attributes too).
// Default classes hold elements of the same tags and are checked the same way.
#pragma once

#include "engine/robots/mjcf_document.h"
#include "swarm/core/status.h"

namespace swarm {

// Checks every element of the document (defaults included) against the lists above.
Status CheckMjcfSchema(const MjcfDocument& document);

}  // namespace swarm
