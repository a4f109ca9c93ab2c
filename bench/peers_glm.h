// The AoS peer of swarm's integration benchmark: the glm::vec4 loop a game programmer writes
// (bench/peers_glm_o2.cc, compiled -O2). Kept apart from bench/peers.h so that the -march=native
// translation units never include glm (see the note there).
#pragma once

#include <glm/vec4.hpp>
#include <span>

namespace swarm::bench {

// v += (g - k v) dt;  p += v dt  on whole vec4s. gravity.w must be 0; with velocities' w = 0 the
// positions' w is carried through unchanged. Spans have equal sizes and do not overlap.
void GlmEulerO2(std::span<glm::vec4> positions, std::span<glm::vec4> velocities,
                const glm::vec4& gravity, float drag_per_second, float dt_seconds);

}  // namespace swarm::bench
