// The plain scalar emitter: one particle per call, the same operations in the same order as
// kernels/particles/emit-inl.h, so with -ffp-contract=off it gives the same bits as EmitParticles.
#pragma once

#include <cstdint>
#include <glm/vec4.hpp>

#include "swarm/kernels/particles/emit.h"

namespace swarm::reference {

struct EmittedParticle {
  glm::vec4 position;  // w = 0
  glm::vec4 velocity;  // w = 0
  float lifetime;
};
EmittedParticle Emit(const EmitterParams& emitter, RandomStream random, uint32_t particle_index);

}  // namespace swarm::reference
