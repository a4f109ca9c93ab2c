// `swarm-robots fk`: forward kinematics as a batch service. Reads q (.npy, float32 or float64,
// [R, q_count] in the q order of `swarm-robots info`), computes every link's world pose with the
// batched kernels and writes float32 [R, links, 7] (px py pz qw qx qy qz, links in info's order).
// q is validated before anything is computed: dtype, shape and finiteness (the first bad value is
// named by its index).
#pragma once

#include "demos/robots/options.h"

namespace swarm {

// Returns the process exit status: 0, or 2 after printing what was wrong.
int RunForwardKinematics(const FkOptions& options);

}  // namespace swarm
