// `swarm-robots info`: what q and the pose outputs of a URDF model mean. With --json, the one-line
// RobotModelJson of swarm/robots/robot_model.h; otherwise a table of the q columns (name, joint
// type, limits) and of the links in pose order (with the joint that moves each).
#pragma once

#include "demos/robots/options.h"

namespace swarm {

// Returns the process exit status: 0, or 2 after printing why the model could not be loaded.
int PrintRobotInfo(const InfoOptions& options);

}  // namespace swarm
