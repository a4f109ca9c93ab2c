// Matrix transforms of SoA f32x4 data: one glm::mat4 applied to N points or directions, N
// matrices applied to N points, and the camera projection the particle demo uses.
//
// Determinism: every output element is the same sequence of correctly rounded Mul/Add/Div on
// every target (no FMA, no reciprocal approximation), in GLM 0.9.9's own operation order, so the
// kernels agree bitwise with GLM's float operators where the modes coincide:
//   matrix * vector (glm's operator*(mat4, vec4) is a pairwise tree, not a left-to-right sum):
//     out_r = (m[0][r] x + m[1][r] y) + (m[2][r] z + m[3][r] w)        for rows r = 0..3
//   matrix * matrix (glm's operator*(mat4, mat4) sums left to right):
//     (a b)[c][r] = ((a[0][r] b[c][0] + a[1][r] b[c][1]) + a[2][r] b[c][2]) + a[3][r] b[c][3]
// where m[c][r] is column c, row r (glm indexing; Mat4View lane 4 c + r). The scalar references
// in swarm/kernels/geometry/transform_reference.h spell out the same order.
//
// Views of one call have equal counts. `in` and `out` (and CameraProject's `points` and
// `screen`) may be the same view (in-place); otherwise outputs must not overlap any input. Only
// the first `count` elements of an output are written: padding stays as it was (zero).
#pragma once

#include <glm/mat4x4.hpp>

#include "swarm/kernels/base/views.h"

namespace swarm {

// What the input lane w means. Each mode reads only the lanes and matrix entries it needs.
enum class TransformMode {
  // w is taken as 1; lane w of the input is not read. out_r = (m[0][r] x + m[1][r] y) +
  // (m[2][r] z + m[3][r]), bitwise glm's m * vec4(x, y, z, 1) in rows 0-2. Without perspective
  // divide the matrix is taken as affine: its bottom row is not read and out.w = 1 (use
  // kHomogeneous to get the transformed w of a projective matrix).
  kPoints,
  // w is taken as 0 and the translation column m[3] is not read: out_r = (m[0][r] x +
  // m[1][r] y) + m[2][r] z, out.w = 0. This equals glm's m * vec4(x, y, z, 0) except that a
  // non-finite translation cannot turn the result into NaN and a zero result may differ in sign.
  kDirections,
  // w is read from the input; out = m * in exactly as glm computes it, out.w the transformed w.
  kHomogeneous
};

struct TransformParams {
  TransformMode mode = TransformMode::kPoints;
  // Divide x, y, z by the transformed w (row 3) with a correctly rounded Div and store w = 1.
  // Points and homogeneous only: combining it with kDirections is a precondition violation.
  // Where the transformed w is 0 the result is the IEEE quotient (+-inf, or NaN for 0/0):
  // documented, never a crash; CameraProject below is the variant that masks such points out.
  bool perspective_divide = false;
};

// out[i] = matrix * in[i]. The matrix entries are broadcast once per call; the loop reads 3 lanes
// (kPoints, kDirections) or 4 (kHomogeneous) and writes 4.
void TransformVectors(const glm::mat4& matrix, const ConstVec4View& in, const Vec4View& out,
                      const TransformParams& params = {});

// out[i] = matrices[i] * in[i], modes as above (kPoints reads rows 0-2 of each matrix,
// kDirections the upper-left 3x3, kHomogeneous all 16 entries); no divide.
void TransformVectorsPerElement(const ConstMat4View& matrices, const ConstVec4View& in,
                                const Vec4View& out, TransformMode mode = TransformMode::kPoints);

// out[i] = a[i] * b[i] (matrix products, e.g. parent * local). `out` may alias neither input.
void MultiplyMatrices(const ConstMat4View& a, const ConstMat4View& b, const Mat4View& out);

// Camera projection of world-space points to pixels, as OpenGL/glm do it (lane w of `points` is
// not read; the point is (x, y, z, 1)):
//   clip = view_projection * (x, y, z, 1)       (all four rows, the kPoints order above)
//   ndc = clip.xyz / clip.w                     (correctly rounded Div)
//   screen.x = ((ndc.x + 1) * 0.5) * width      (pixels, x right)
//   screen.y = ((1 - ndc.y) * 0.5) * height     (pixels, y down: row 0 is the top of the image)
//   screen.z = ndc.z (depth in [-1, 1]);  screen.w = clip.w (view depth for perspective)
// screen.x equals glm::project's x for viewport (0, 0, width, height) bitwise (scaling by 0.5
// commutes with rounding), up to the sign of a zero; glm::project's window y grows upwards, so
// screen.y corresponds to height - y there, and its z is ndc.z * 0.5 + 0.5.
// visible[i] = 1 if clip.w > 0 and |clip.x|, |clip.y|, |clip.z| <= clip.w (inside the frustum,
// which excludes NaN since comparisons with NaN are false), else 0. Invisible points still get
// their (possibly infinite or NaN) screen values. width and height must be finite and > 0.
struct CameraParams {
  glm::mat4 view_projection{1.0f};
  float width_pixels = 1.0f;
  float height_pixels = 1.0f;
};
void CameraProject(const CameraParams& camera, const ConstVec4View& points, const Vec4View& screen,
                   const ByteView& visible);

}  // namespace swarm
