// Validation of user-supplied integration parameters. The kernels trust their inputs; these
// checks run once at the engine's boundary (particle_ops.h, ParticleSystem) and return a message
// naming the parameter, what it must be and what it was.
#pragma once

#include "swarm/core/status.h"
#include "swarm/kernels/particles/emit.h"
#include "swarm/kernels/particles/integrate.h"

namespace swarm {

Status ValidateDt(float dt_seconds);
Status ValidateEuler(const EulerParams& params);
Status ValidateBox(const BoxParams& params);
Status ValidateAttractor(const AttractorParams& params);
Status ValidateEmitter(const EmitterParams& params);

}  // namespace swarm
