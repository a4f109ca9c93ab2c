// The AoS glm peers compiled -O2 (bench/CMakeLists.txt): the loops a game programmer writes,
// with glm's default configuration (no GLM_FORCE_* macros).
#include <cstddef>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "bench/transform_peers_glm.h"

namespace swarm::bench {

void GlmTransformPointsO2(const glm::mat4& matrix, std::span<const glm::vec4> in,
                          std::span<glm::vec4> out) {
  for (size_t i = 0; i < in.size(); ++i) out[i] = matrix * in[i];
}

void GlmTransformPerElementO2(std::span<const glm::mat4> matrices, std::span<const glm::vec4> in,
                              std::span<glm::vec4> out) {
  for (size_t i = 0; i < in.size(); ++i) out[i] = matrices[i] * in[i];
}

void GlmRotateO2(const glm::quat& q, std::span<const glm::vec4> in, std::span<glm::vec4> out) {
  for (size_t i = 0; i < in.size(); ++i) out[i] = glm::vec4(q * glm::vec3(in[i]), in[i].w);
}

void GlmRotatePerElementO2(std::span<const glm::quat> q, std::span<const glm::vec4> in,
                           std::span<glm::vec4> out) {
  for (size_t i = 0; i < in.size(); ++i) out[i] = glm::vec4(q[i] * glm::vec3(in[i]), in[i].w);
}

}  // namespace swarm::bench
