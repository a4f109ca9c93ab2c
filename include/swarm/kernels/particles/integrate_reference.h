// Plain scalar references for the integration kernels, written the way a game programmer writes
// them: array-of-structures glm::vec4, one particle at a time. Tests compare the SIMD kernels
// against these; benchmarks use them as the baseline. They perform the same IEEE operations in
// the same order as the kernels (kernels/particles/integrate-inl.h), so with -ffp-contract=off the
// results agree to the bit; tests still state a tolerance so that a reordering shows up as a clear
// difference rather than a hash mismatch.
#pragma once

#include <cstdint>
#include <glm/vec4.hpp>
#include <span>

#include "swarm/kernels/particles/integrate.h"

namespace swarm::reference {

void IntegrateEuler(std::span<glm::vec4> positions, std::span<glm::vec4> velocities,
                    const EulerParams& params);
void VerletKickDrift(std::span<glm::vec4> positions, std::span<glm::vec4> velocities,
                     std::span<const glm::vec4> accelerations, float dt_seconds);
void VerletKick(std::span<glm::vec4> velocities, std::span<const glm::vec4> accelerations,
                float dt_seconds);
void CollideBox(std::span<glm::vec4> positions, std::span<glm::vec4> velocities,
                const BoxParams& params);
void ApplyAttractor(std::span<const glm::vec4> positions, std::span<glm::vec4> velocities,
                    const AttractorParams& params);
void AdvanceAge(std::span<float> ages, std::span<const float> lifetimes, std::span<uint8_t> dead,
                float dt_seconds);

}  // namespace swarm::reference
