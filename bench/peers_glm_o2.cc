// The AoS glm::vec4 peer compiled -O2 (bench/CMakeLists.txt): the loop a game programmer writes.
#include <cstddef>
#include <glm/vec4.hpp>

#include "bench/peers_glm.h"

namespace swarm::bench {

void GlmEulerO2(std::span<glm::vec4> positions, std::span<glm::vec4> velocities,
                const glm::vec4& gravity, float drag_per_second, float dt_seconds) {
  for (size_t i = 0; i < positions.size(); ++i) {
    velocities[i] += (gravity - drag_per_second * velocities[i]) * dt_seconds;
    positions[i] += velocities[i] * dt_seconds;
  }
}

}  // namespace swarm::bench
