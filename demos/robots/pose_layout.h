// Poses in swarm-robots' files are px py pz qw qx qy qz (w first, as the users and most
// robotics tools print quaternions); swarm's pose arrays (swarm/kernels/robots/robot_kinematics.h)
// are px py pz qx qy qz qw. kFileToPoseArray[c] is the pose array that file column c comes from.
#pragma once

#include <cstddef>

#include "swarm/kernels/robots/robot_kinematics.h"

namespace swarm {

inline constexpr size_t kFileToPoseArray[kPoseArrays] = {0, 1, 2, 6, 3, 4, 5};

}  // namespace swarm
