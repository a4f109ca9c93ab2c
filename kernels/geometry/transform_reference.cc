#include "swarm/kernels/geometry/transform_reference.h"

#include <cmath>
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

namespace swarm::reference {

glm::vec4 TransformVector(const glm::mat4& matrix, const glm::vec4& v,
                          const TransformParams& params) {
  const glm::vec3 xyz(v);
  switch (params.mode) {
    case TransformMode::kPoints: {
      // glm multiplies m[3] by w = 1 (exact), the kernel adds m[3] directly: same bits.
      const glm::vec4 p = matrix * glm::vec4(xyz, 1.0f);
      if (params.perspective_divide) return glm::vec4(glm::vec3(p) / p.w, 1.0f);
      return glm::vec4(glm::vec3(p), 1.0f);
    }
    case TransformMode::kDirections:
      // glm's mat3 * vec3 sums left to right: ((m0 x + m1 y) + m2 z), the translation unread.
      return glm::vec4(glm::mat3(matrix) * xyz, 0.0f);
    case TransformMode::kHomogeneous: {
      const glm::vec4 h = matrix * v;
      if (params.perspective_divide) return glm::vec4(glm::vec3(h) / h.w, 1.0f);
      return h;
    }
  }
  return v;
}

void TransformVectors(const glm::mat4& matrix, std::span<const glm::vec4> in,
                      std::span<glm::vec4> out, const TransformParams& params) {
  for (size_t i = 0; i < in.size(); ++i) out[i] = TransformVector(matrix, in[i], params);
}

void TransformVectorsPerElement(std::span<const glm::mat4> matrices, std::span<const glm::vec4> in,
                                std::span<glm::vec4> out, TransformMode mode) {
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = TransformVector(matrices[i], in[i], TransformParams{mode, false});
  }
}

void MultiplyMatrices(std::span<const glm::mat4> a, std::span<const glm::mat4> b,
                      std::span<glm::mat4> out) {
  for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] * b[i];
}

ProjectedPoint ProjectPoint(const CameraParams& camera, const glm::vec4& point) {
  const glm::vec4 clip = camera.view_projection * glm::vec4(glm::vec3(point), 1.0f);
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  ProjectedPoint out;
  out.screen.x = ((ndc.x + 1.0f) * 0.5f) * camera.width_pixels;
  out.screen.y = ((1.0f - ndc.y) * 0.5f) * camera.height_pixels;
  out.screen.z = ndc.z;
  out.screen.w = clip.w;
  out.visible = clip.w > 0.0f && std::abs(clip.x) <= clip.w && std::abs(clip.y) <= clip.w &&
                std::abs(clip.z) <= clip.w;
  return out;
}

void CameraProject(const CameraParams& camera, std::span<const glm::vec4> points,
                   std::span<glm::vec4> screen, std::span<uint8_t> visible) {
  for (size_t i = 0; i < points.size(); ++i) {
    const ProjectedPoint projected = ProjectPoint(camera, points[i]);
    screen[i] = projected.screen;
    visible[i] = projected.visible ? 1 : 0;
  }
}

}  // namespace swarm::reference
