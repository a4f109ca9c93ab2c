// swarm-robots dynamics: the rigid-body dynamics terms of R robot configurations as a batch
// service: M(q), h(q, qd) = C(q, qd) qd + g(q) and qdd = M^-1 (tau - h), from .npy rows.
#pragma once

#include "demos/robots/options.h"

namespace swarm {

// Returns the process exit status (0, or kExitBadInput after printing the error).
int RunDynamics(const DynamicsCommandOptions& options);

}  // namespace swarm
