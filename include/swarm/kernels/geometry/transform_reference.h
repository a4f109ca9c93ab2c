// Plain scalar references for the matrix transform kernels, written the way a game programmer
// writes them: array-of-structures glm types and glm's own operators, one element at a time.
// glm's float operators already use the operation order the kernels promise
// (swarm/kernels/geometry/transform.h), so with -ffp-contract=off kernel and reference agree to the
// bit; tests still compare with a tolerance first so that a reordered operation reads as a value
// difference.
#pragma once

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <span>

#include "swarm/kernels/geometry/transform.h"

namespace swarm::reference {

// matrix * v with the mode's meaning of w and the optional divide
// (swarm/kernels/geometry/transform.h).
glm::vec4 TransformVector(const glm::mat4& matrix, const glm::vec4& v,
                          const TransformParams& params);

// out[i] = TransformVector(matrix, in[i], params); in and out may be the same span.
void TransformVectors(const glm::mat4& matrix, std::span<const glm::vec4> in,
                      std::span<glm::vec4> out, const TransformParams& params = {});
void TransformVectorsPerElement(std::span<const glm::mat4> matrices, std::span<const glm::vec4> in,
                                std::span<glm::vec4> out,
                                TransformMode mode = TransformMode::kPoints);
void MultiplyMatrices(std::span<const glm::mat4> a, std::span<const glm::mat4> b,
                      std::span<glm::mat4> out);

struct ProjectedPoint {
  glm::vec4 screen;
  bool visible;
};
ProjectedPoint ProjectPoint(const CameraParams& camera, const glm::vec4& point);
void CameraProject(const CameraParams& camera, std::span<const glm::vec4> points,
                   std::span<glm::vec4> screen, std::span<uint8_t> visible);

}  // namespace swarm::reference
