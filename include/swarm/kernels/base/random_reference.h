// The plain scalar counter-based generator: one value per call, the same integer operations as
// kernels/base/random-inl.h, so it gives the same bits as FillUniform on every target.
#pragma once

#include <cstdint>
#include <span>

#include "swarm/kernels/base/random.h"

namespace swarm::reference {

// Counter-based generator, one value: uniform in [0, 1) for `counter` of `random`.
float Uniform(RandomStream random, uint32_t counter);
void FillUniform(std::span<float> out, RandomStream random, uint32_t first_index, float lo,
                 float hi);

}  // namespace swarm::reference
