// Matrix transforms of SoA f32x4 data: one glm::mat4 applied to N points or directions, N
// matrices applied to N points, and the camera projection the particle demo uses.
//
// Determinism: every output is the same sequence of correctly rounded Mul/Add/Div per element,
//   out = ((m[0] * x + m[4] * y) + m[8] * z) + m[12] * w      (row 0; rows 1-3 alike)
// i.e. glm's column order, without FMA, on every target. The scalar references in
// kernels/transform_reference.h spell out the same order.
//
// Views of one call have equal counts. `in` and `out` may be the same view (in-place); otherwise
// they must not overlap.
#pragma once

#include <glm/mat4x4.hpp>

#include "kernels/views.h"

namespace swarm {

// What the input lane w means.
enum class TransformMode {
  kPoints,      // w is taken as 1 (translation applies); out.w = 1 unless perspective divide
  kDirections,  // w is taken as 0 (no translation); out.w = 0
  kHomogeneous  // w is read from the input; out.w is the transformed w
};

struct TransformParams {
  TransformMode mode = TransformMode::kPoints;
  // Divide x, y, z by the transformed w and store w = 1 (points and homogeneous only). Where the
  // transformed w is 0 the result is the IEEE quotient (+-inf, or NaN for 0/0): documented, never
  // a crash; CameraProject below is the variant that masks such points out.
  bool perspective_divide = false;
};

// out[i] = matrix * in[i].
void TransformVectors(const glm::mat4& matrix, const ConstVec4View& in, const Vec4View& out,
                      const TransformParams& params = {});

// out[i] = matrices[i] * in[i] (kPoints/kDirections/kHomogeneous as above; no divide).
void TransformVectorsPerElement(const ConstMat4View& matrices, const ConstVec4View& in,
                                const Vec4View& out, TransformMode mode = TransformMode::kPoints);

// out[i] = a[i] * b[i] (matrix products, e.g. parent * local). `out` may alias neither input.
void MultiplyMatrices(const ConstMat4View& a, const ConstMat4View& b, const Mat4View& out);

// Camera projection of world-space points to pixels, as OpenGL/glm do it:
//   clip = view_projection * (x, y, z, 1);  ndc = clip.xyz / clip.w
//   screen.x = (ndc.x + 1) / 2 * width;  screen.y = (1 - ndc.y) / 2 * height  (y down, pixels)
//   screen.z = ndc.z (depth in [-1, 1]);  screen.w = clip.w (view depth for perspective)
// visible[i] = 1 if clip.w > 0 and -clip.w <= clip.x, clip.y, clip.z <= clip.w (inside the
// frustum, NaN-free), else 0; invisible points still get their (possibly infinite) screen values.
struct CameraParams {
  glm::mat4 view_projection{1.0f};
  float width_pixels = 1.0f;
  float height_pixels = 1.0f;
};
void CameraProject(const CameraParams& camera, const ConstVec4View& points,
                   const Vec4View& screen, const ByteView& visible);

}  // namespace swarm
