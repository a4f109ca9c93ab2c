// The AoS peers of swarm's transform benchmark: the glm loops a game programmer writes
// (bench/transform_peers_glm_o2.cc, compiled -O2). Kept apart from bench/transform_peers.h so
// that the -march=native translation units never include glm.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <span>

namespace swarm::bench {

// Spans of one call have equal sizes; outputs do not overlap inputs.

// out[i] = matrix * in[i] (points carry w = 1).
void GlmTransformPointsO2(const glm::mat4& matrix, std::span<const glm::vec4> in,
                          std::span<glm::vec4> out);
// out[i] = matrices[i] * in[i].
void GlmTransformPerElementO2(std::span<const glm::mat4> matrices, std::span<const glm::vec4> in,
                              std::span<glm::vec4> out);
// out[i] = vec4(q * vec3(in[i]), in[i].w).
void GlmRotateO2(const glm::quat& q, std::span<const glm::vec4> in, std::span<glm::vec4> out);
// out[i] = vec4(q[i] * vec3(in[i]), in[i].w).
void GlmRotatePerElementO2(std::span<const glm::quat> q, std::span<const glm::vec4> in,
                           std::span<glm::vec4> out);

}  // namespace swarm::bench
